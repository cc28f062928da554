package io.ax.bench.delayed;

import io.ax.bench.Options;
import io.ax.bench.db.Postgres;
import io.ax.bench.db.Probe;
import io.ax.bench.db.ServerCpu;
import io.ax.bench.delayed.DelayedSystem.Handler;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * One system through the phases of the scenario, in this order, on one schema: write the far-future backlog
 * (scheduling throughput); for AX, restart with that backlog (ready to fire); schedule executions due over the
 * next seconds (lateness under the backlog); schedule a burst due at one moment (execute-due throughput).
 */
final class DelayedRun {

    /** What the scenario asks of each system. */
    record Plan(
            DueTimes pending,
            DueTimes late,
            Duration lateStart,
            Duration lateEnd,
            int burst,
            Duration minBurstLead,
            int batch,
            int threads,
            int maxSeconds,
            int memory) {}

    /** What one system scored; times in seconds, lateness in microseconds. */
    record Measured(
            double scheduleSeconds,
            double scheduleServerCpu,
            ReadyToFire.Result ready,
            double restartSeconds,
            Histogram lateness,
            long lateEarly,
            double burstSeconds,
            long burstExecuted,
            double burstServerCpu,
            double burstLead,
            double burstWriteSeconds,
            long pendingFired) {}

    private static final Duration LATE_GRACE = Duration.ofSeconds(60);
    private static final Duration ANALYZE_ALLOWANCE = Duration.ofSeconds(3);

    private final Plan plan;
    private final Options options;
    private final Postgres pg;

    DelayedRun(Plan plan, Options options, Postgres pg) {
        this.plan = plan;
        this.options = options;
        this.pg = pg;
    }

    Measured measure(DelayedSystem system) throws Exception {
        Map<Handler, Probe> probes = new EnumMap<>(Handler.class);
        for (Handler h : Handler.values()) {
            probes.put(h, new Probe());
        }
        system.open(plan.threads(), plan.burst(), probes);
        try {
            ServerCpu cpu = ServerCpu.start();
            double scheduleSeconds = write(system, Handler.PENDING, plan.pending(), Instant.now());
            double scheduleCpu = cpu.seconds();
            DelayedScenario.log(
                    "%s: %,d far-future executions written in %.1f s = %,.0f/s (PostgreSQL CPU %.1f s)",
                    system.name(),
                    plan.pending().size(),
                    scheduleSeconds,
                    plan.pending().size() / scheduleSeconds,
                    scheduleCpu);
            pg.analyze(system.schema()); // as a database in service would have, before anything reads the backlog

            ReadyToFire.Result ready = null;
            double restart = Double.NaN;
            if (system instanceof AxDelayed ax) {
                ax.stop();
                ready = ReadyToFire.measure(options, pg, plan.threads(), plan.burst());
                DelayedScenario.log("%s: %s", system.name(), ready);
                restart = ax.restart();
                DelayedScenario.log("%s: restarted in this JVM in %.2f s", system.name(), restart);
            }

            Probe late = probes.get(Handler.LATE);
            logStoreActivity(system, "before the timed executions");
            Histogram lateness = lateness(system, late);

            Probe burst = probes.get(Handler.BURST);
            Burst b = burst(system, burst, scheduleSeconds);
            return new Measured(
                    scheduleSeconds,
                    scheduleCpu,
                    ready,
                    restart,
                    lateness,
                    late.early(),
                    b.seconds(),
                    burst.executions(),
                    b.serverCpu(),
                    b.lead(),
                    b.writeSeconds(),
                    probes.get(Handler.PENDING).executions());
        } finally {
            long t0 = System.nanoTime();
            system.close();
            DelayedScenario.log("%s: stopped and cleaned in %.1f s", system.name(), (System.nanoTime() - t0) / 1e9);
        }
    }

    /** Writes every time of {@code times} in batches; returns the seconds from the first call to the last return. */
    private double write(DelayedSystem system, Handler handler, DueTimes times, Instant base) throws Exception {
        long t0 = System.nanoTime();
        long nextLog = t0 + 10_000_000_000L;
        for (int from = 0; from < times.size(); from += plan.batch()) {
            int to = Math.min(times.size(), from + plan.batch());
            system.schedule(handler, times.batch(base, from, to));
            if (System.nanoTime() > nextLog) {
                DelayedScenario.log("%s: %,d of %,d %s written", system.name(), to, times.size(), handler.taskName);
                nextLog += 10_000_000_000L;
            }
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    /** Executions due over the next seconds, with the backlog in the store; their lateness. */
    private Histogram lateness(DelayedSystem system, Probe probe) throws Exception {
        int n = plan.late().size();
        Instant base = Instant.now();
        double writeSeconds = write(system, Handler.LATE, plan.late(), base);
        long giveUp = System.nanoTime()
                + Duration.between(Instant.now(), base.plus(plan.lateEnd()).plus(LATE_GRACE))
                        .toNanos();
        while (probe.executions() < n && System.nanoTime() < giveUp) {
            Thread.sleep(20);
        }
        Histogram h = probe.cut();
        DelayedScenario.log(
                "%s: %,d of %,d timed executions ran (written in %.2f s); lateness p50 %.1f ms, p99 %.1f ms, max %.1f"
                        + " ms; %d early",
                system.name(),
                h.getTotalCount(),
                n,
                writeSeconds,
                h.getValueAtPercentile(50) / 1e3,
                h.getValueAtPercentile(99) / 1e3,
                h.getMaxValue() / 1e3,
                probe.early());
        return h;
    }

    /** The burst phase: seconds from due to drained, server CPU meanwhile, how far ahead it was written. */
    private record Burst(double seconds, double serverCpu, double lead, double writeSeconds) {}

    /** Writes the burst due a few seconds ahead, analyzes, and times it from its due instant until drained. */
    private Burst burst(DelayedSystem system, Probe probe, double backlogSeconds) throws Exception {
        // enough to write the burst (at the rate the backlog was written) and analyze the tables before it is due
        long lead = (long) Math.max(
                        plan.minBurstLead().toSeconds(),
                        Math.ceil(3.0
                                * plan.burst()
                                * backlogSeconds
                                / plan.pending().size()))
                + ANALYZE_ALLOWANCE.toSeconds();
        Instant base = Instant.now();
        Instant due = base.plusSeconds(lead);
        double writeSeconds =
                write(system, Handler.BURST, DueTimes.together(plan.burst(), Duration.ofSeconds(lead)), base);
        // db-scheduler drains a burst its planner statistics do not know of several times slower (2,200/s
        // instead of 6,300/s in a trial); a database in service analyzes after that many inserts, so both get it
        pg.analyze(system.schema());
        logStoreActivity(system, "before the burst");
        double[] drained = drain(system, probe, due);
        logStoreActivity(system, "after the burst");
        return new Burst(drained[0], drained[1], lead, writeSeconds);
    }

    /**
     * From the moment the burst is due until the store says every execution of it finished.
     *
     * @return {seconds, PostgreSQL server CPU seconds meanwhile}
     */
    private double[] drain(DelayedSystem system, Probe probe, Instant due) throws Exception {
        int n = plan.burst();
        long wait = Duration.between(Instant.now(), due).toNanos();
        if (wait <= 0) {
            DelayedScenario.log("%s: writing the burst ended %.2f s after it was due", system.name(), -wait / 1e9);
        } else {
            DelayedScenario.log("%s: burst written %.2f s before it is due", system.name(), wait / 1e9);
        }
        long dueNanos = System.nanoTime() + wait;
        sleepUntil(dueNanos);
        ServerCpu cpu = ServerCpu.start();
        long deadline = dueNanos + plan.maxSeconds() * 1_000_000_000L;
        long nextLog = dueNanos + 5_000_000_000L;
        long end;
        while (true) {
            long now = System.nanoTime();
            // the count query only once every handler ran: polling the store earlier would slow both
            if (probe.executions() >= n && system.unfinished(Handler.BURST) == 0) {
                end = now;
                break;
            }
            if (now > deadline) {
                end = now;
                DelayedScenario.log("%s: burst not drained after %d s", system.name(), plan.maxSeconds());
                break;
            }
            if (now > nextLog) {
                DelayedScenario.log(
                        "%s: %,d of %,d burst executions ran after %.0f s",
                        system.name(), probe.executions(), n, (now - dueNanos) / 1e9);
                nextLog += 5_000_000_000L;
            }
            Thread.sleep(20);
        }
        double seconds = (end - dueNanos) / 1e9;
        double serverCpu = cpu.seconds();
        DelayedScenario.log(
                "%s: burst of %,d drained in %.2f s = %,.0f/s (PostgreSQL CPU %.1f s)",
                system.name(), probe.executions(), seconds, Math.min(n, probe.executions()) / seconds, serverCpu);
        return new double[] {seconds, serverCpu};
    }

    /** Where the scheduler's time went, for the progress log (AX only: db-scheduler's store is not seen). */
    private static void logStoreActivity(DelayedSystem system, String when) {
        String activity = system.storeActivity();
        if (!activity.isEmpty()) {
            DelayedScenario.log("%s: %s, %s", system.name(), when, activity);
        }
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
        }
    }
}
