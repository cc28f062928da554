package io.ax.core;

/** Where the instances of a task live. */
public enum Durability {
    /** Held in the store; survives a crash once a durable store is configured. The default. */
    PERSISTENT,
    /** Held in memory only: cheapest, and lost when the process dies. */
    MEMORY
}
