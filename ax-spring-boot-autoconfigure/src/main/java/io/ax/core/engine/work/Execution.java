package io.ax.core.engine.work;

import io.ax.core.AxTask;
import io.ax.core.engine.threads.Due;
import java.time.Instant;

/**
 * One attempt of one instance, from dispatch to its end. The worker and whatever ends an attempt early (its
 * timeout, or its node losing the cluster store for longer than the others allow) race to end it; the monitor of
 * this object decides who wins, and a thread is interrupted only while it is still running this attempt, so an
 * interrupt never leaks into the next work of a pool thread.
 */
public final class Execution {

    final Due due;
    public final int attempt;
    /** The leader epoch its assignment (or takeover) carried: the fencing token's; 0 when none is known. */
    final long epoch;

    private Thread thread;
    private boolean running;
    private boolean endedEarly;
    long startNanos;
    long timeoutHandle;
    /** The node's count of cut-offs when the attempt was handed to its pool (see {@link InstanceRunner#handOff}). */
    volatile long cutOffsAtHandOff;
    /**
     * Set by the worker once the attempt's outcome is final (SUCCESS, or DEAD) and before its task's slot is freed:
     * a fire that meets the slot still taken in between waits the moment out instead of being skipped.
     */
    volatile boolean ending;

    public Execution(Due due, int attempt, long epoch) {
        this.due = due;
        this.attempt = attempt;
        this.epoch = epoch;
    }

    AxTask task() {
        return due.task();
    }

    public String instanceId() {
        return due.instanceId();
    }

    Instant scheduledTime() {
        return due.scheduledTime();
    }

    synchronized void begin(Thread worker, long nowNanos) {
        thread = worker;
        startNanos = nowNanos;
        running = true;
    }

    /** Ends the attempt for the worker; false when it was ended early (and whoever did decides what follows). */
    synchronized boolean finish() {
        boolean mine = running && !endedEarly;
        running = false;
        thread = null;
        return mine;
    }

    /**
     * Ends the attempt early (its timeout, its node cut off) and interrupts the worker; false when the worker, or
     * another early end, already ended it. The caller decides what follows.
     */
    synchronized boolean endEarly() {
        if (!running || endedEarly) {
            return false;
        }
        endedEarly = true;
        thread.interrupt();
        return true;
    }
}
