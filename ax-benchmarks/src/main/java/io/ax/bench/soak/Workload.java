package io.ax.bench.soak;

import io.ax.core.AxTask;
import io.ax.core.Backoff;
import io.ax.core.RetryPolicy;
import io.ax.core.engine.AxEngine;
import io.ax.core.trigger.CronTrigger;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.core.trigger.Trigger;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The recurring side of the soak, modelled on the sample app's jobs (heartbeat, tick, flaky, doomed, slow) and scaled
 * up: {@code --tasks} tasks spread over the kinds below, plus the on-demand handler {@link #DELAYED} that the
 * {@link DelayedStream} schedules, as the sample's orders schedule {@code closeUnpaidOrder}. Every task is PERSISTENT
 * (the default), so every fire goes through the store and therefore through the proxy.
 */
final class Workload {

    /** The task type the {@link SoakExecutor} runs; the target names the kind. */
    static final String TYPE = "SOAK";

    /** The on-demand handler of the delayed executions. */
    static final String DELAYED = "soak-delayed";

    /** One kind of recurring task: how often it fires and what its handler does. */
    enum Kind {
        /** Fixed rate every second, does nothing: the bulk of the fires. */
        TICK(40, IntervalTrigger.fixedRate(Duration.ofSeconds(1), Duration.ofSeconds(1)), 1, RetryPolicy.none()),
        /** Cron on every fifth second, all of them on the same boundary. */
        HEARTBEAT(20, CronTrigger.of("0/5 * * * * ?", ZoneOffset.UTC), 5, RetryPolicy.none()),
        /** Fixed delay 10 s, sleeps 0.2-1.5 s: a slower handler holding a worker. */
        REPORT(15, IntervalTrigger.fixedDelay(Duration.ofSeconds(10), Duration.ofSeconds(1)), 10, retries(1)),
        /** Fixed delay 15 s, each attempt fails with probability 0.3: retries, and now and then a dead letter. */
        FLAKY(15, IntervalTrigger.fixedDelay(Duration.ofSeconds(15), Duration.ofSeconds(1)), 15, retries(2)),
        /** Fixed delay 20 s, one run in five outlasts its 1 s timeout: TIMEOUT, then a retry. */
        SLOW(5, IntervalTrigger.fixedDelay(Duration.ofSeconds(20), Duration.ofSeconds(2)), 20, retries(1)),
        /** Fixed delay 30 s, always fails: a dead letter per fire once its two retries are spent. */
        DOOMED(5, IntervalTrigger.fixedDelay(Duration.ofSeconds(30), Duration.ofSeconds(3)), 30, retries(2));

        /** Share of {@code --tasks}, in percent. */
        final int percent;

        final Trigger trigger;
        /** The longest wait between two fires when all goes well, for the bound on recovery after an outage. */
        final Duration period;

        final RetryPolicy retry;

        Kind(int percent, Trigger trigger, int periodSeconds, RetryPolicy retry) {
            this.percent = percent;
            this.trigger = trigger;
            this.period = Duration.ofSeconds(periodSeconds);
            this.retry = retry;
        }

        Duration timeout() {
            return this == SLOW ? Duration.ofSeconds(1) : Duration.ofSeconds(10);
        }

        /** The handler's work; an exception fails the attempt. */
        void work(ThreadLocalRandom random) throws InterruptedException {
            switch (this) {
                case REPORT -> Thread.sleep(random.nextLong(200, 1_500));
                case FLAKY -> {
                    if (random.nextInt(10) < 3) {
                        throw new IllegalStateException("flaky failure");
                    }
                }
                case SLOW -> {
                    if (random.nextInt(5) == 0) {
                        Thread.sleep(2_000); // interrupted by the 1 s timeout
                    }
                }
                case DOOMED -> throw new IllegalStateException("the downstream system is gone");
                default -> {
                    // TICK and HEARTBEAT: the fire itself is the work
                }
            }
        }

        private static RetryPolicy retries(int times) {
            return new RetryPolicy(times, Backoff.EXPONENTIAL, Duration.ofSeconds(1), Duration.ofSeconds(4));
        }
    }

    /** Task name to the longest wait between its fires, in registration order. */
    private final Map<String, Duration> periods = new LinkedHashMap<>();

    /** Splits {@code tasks} over the kinds by their share, at least one each; the first kind takes the rounding. */
    Workload(int tasks) {
        int rest = tasks;
        Kind[] kinds = Kind.values();
        int[] counts = new int[kinds.length];
        for (int k = kinds.length - 1; k > 0; k--) {
            counts[k] = Math.max(1, tasks * kinds[k].percent / 100);
            rest -= counts[k];
        }
        counts[0] = rest;
        for (int k = 0; k < kinds.length; k++) {
            for (int i = 0; i < counts[k]; i++) {
                periods.put(name(kinds[k], i), kinds[k].period);
            }
        }
    }

    /** Registers every task and the delayed handler; before {@code engine.start()}. */
    void register(AxEngine engine) {
        for (String name : periods.keySet()) {
            Kind kind = kindOf(name);
            engine.register(AxTask.builder(name)
                    .type(TYPE)
                    .target(kind.name())
                    .trigger(kind.trigger)
                    .retry(kind.retry)
                    .timeout(kind.timeout())
                    .build());
        }
        engine.register(AxTask.builder(DELAYED)
                .type(TYPE)
                .target(DELAYED)
                .retry(new RetryPolicy(3, Backoff.EXPONENTIAL, Duration.ofSeconds(1), Duration.ofSeconds(10)))
                .timeout(Duration.ofSeconds(10))
                .build());
    }

    /** Recurring task name to its period. */
    Map<String, Duration> periods() {
        return periods;
    }

    /** Recurring fires due per minute when all goes well (fixed delays stretched by their handlers not counted). */
    double firesPerMinute() {
        return periods.values().stream().mapToDouble(p -> 60.0 / p.toSeconds()).sum();
    }

    /** How many tasks of each kind, e.g. {@code 40 TICK (1 s)}. */
    String describe() {
        StringBuilder out = new StringBuilder();
        for (Kind kind : Kind.values()) {
            long n = periods.keySet().stream().filter(t -> kindOf(t) == kind).count();
            out.append(out.isEmpty() ? "" : ", ")
                    .append(n)
                    .append(' ')
                    .append(kind)
                    .append(" (")
                    .append(kind.period.toSeconds())
                    .append(" s)");
        }
        return out.toString();
    }

    private static String name(Kind kind, int i) {
        return "soak-" + kind.name().toLowerCase(java.util.Locale.ROOT) + "-" + i;
    }

    private static Kind kindOf(String taskName) {
        String kind = taskName.substring("soak-".length(), taskName.lastIndexOf('-'));
        return Kind.valueOf(kind.toUpperCase(java.util.Locale.ROOT));
    }
}
