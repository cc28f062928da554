package io.ax.core.store;

import java.util.Objects;

/**
 * What kind of store holds the instances, and where, told to people: the start-up log line, the {@code ax} endpoint
 * and health. Never carries credentials.
 *
 * @param kind {@code in-memory}, {@code jdbc}, or what a custom store calls itself
 * @param location where it keeps its data (for JDBC: the database product and its URL without credentials); null
 *     when there is nothing to say
 */
public record StoreDescription(String kind, String location) {

    /** The in-memory store's: its instances are gone when the process stops. */
    public static final StoreDescription IN_MEMORY = new StoreDescription("in-memory", null);

    public StoreDescription {
        Objects.requireNonNull(kind, "kind");
    }

    /** Whether instances outlive the process: false only for the in-memory store. */
    public boolean durable() {
        return !IN_MEMORY.kind().equals(kind);
    }

    @Override
    public String toString() {
        return location == null ? kind : kind + " (" + location + ")";
    }
}
