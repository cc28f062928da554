package io.ax.core.engine;

import io.ax.core.AxTask;
import java.time.Instant;

/**
 * One attempt of one instance, from dispatch to its end. The timeout and the worker race to end it; the monitor of
 * this object decides who wins, and a thread is interrupted only while it is still running this attempt, so an
 * interrupt never leaks into the next work of a pool thread.
 */
final class Execution {

    final Due due;
    final int attempt;

    private Thread thread;
    private boolean running;
    private boolean timedOut;
    long startNanos;
    long timeoutHandle;

    Execution(Due due, int attempt) {
        this.due = due;
        this.attempt = attempt;
    }

    AxTask task() {
        return due.task();
    }

    String instanceId() {
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

    /** Ends the attempt for the worker; false when the timeout already ended it. */
    synchronized boolean finish() {
        boolean mine = running && !timedOut;
        running = false;
        thread = null;
        return mine;
    }

    /** Ends the attempt for the timeout and interrupts the worker; false when the worker already ended it. */
    synchronized boolean expire() {
        if (!running || timedOut) {
            return false;
        }
        timedOut = true;
        thread.interrupt();
        return true;
    }
}
