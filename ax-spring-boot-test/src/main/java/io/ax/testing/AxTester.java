package io.ax.testing;

import io.ax.core.AuditEntry;
import io.ax.core.DeadLetter;
import io.ax.core.InstanceDetails;
import io.ax.core.TaskInstance;
import io.ax.core.cluster.ClusterView;
import io.ax.core.engine.AxEngine;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * Drives the engine of a test context ({@link AutoConfigureAxTest}) on a clock that only the test moves. Inject it
 * into the test.
 *
 * <p>Every method returns once the engine has <em>settled</em>: nothing on its threads, no attempt running or
 * waiting for a pool thread, no state change waiting to be written, nothing due by the test's clock, and so for a
 * few consecutive readings. Time moves only through {@link #advance}, {@link #runNow} and {@link #awaitEnd}; each
 * moves it from one deadline of the engine to the next (a fire, a retry's back-off, a timeout), settling at each, so
 * that fires are on time and a series fires once per fire time, as in production, however far the test jumps.
 *
 * <p>Every wait is bounded by {@code ax.test.await} of real time (30 s by default): each step of {@link #advance}, and
 * the whole of {@link #runNow} and {@link #awaitEnd}. A bound that runs out fails the test with what the engine was
 * still doing. An attempt that keeps running in real time (a handler that blocks) holds
 * the clock, and every call, for {@code ax.test.patience} (2 s) at most: then time moves on past it, which is what
 * lets a test see that handler time out.
 *
 * <p>Not thread-safe: one test thread drives it.
 */
public final class AxTester {

    /** Readings in a row that must find the engine settled, with nothing reported in between. */
    private static final int CALM_READINGS = 3;

    private static final long READING_EVERY_NANOS = Duration.ofMillis(2).toNanos();
    private static final int PAGE = 500;
    /** What {@link io.ax.core.engine.EngineStatus#busyWith()} says when only attempts run. */
    private static final List<String> POOLS = List.of("pools");

    private final AxEngine engine;
    private final AxTestClock clock;
    private final AxTestTimers timers;
    private final AxTestActivity activity;
    private final Duration await;
    private final Duration patience;

    AxTester(
            AxEngine engine,
            AxTestClock clock,
            AxTestTimers timers,
            AxTestActivity activity,
            Duration await,
            Duration patience) {
        this.engine = engine;
        this.clock = clock;
        this.timers = timers;
        this.activity = activity;
        this.await = positive(await, "ax.test.await");
        this.patience = positive(patience, "ax.test.patience");
    }

    private static Duration positive(Duration d, String name) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be a positive duration, was " + d);
        }
        return d;
    }

    /** {@return the test's time, as the engine reads it} */
    public Instant now() {
        return clock.instant();
    }

    /**
     * Moves time forward by {@code duration}, running everything that falls due on the way at its own time (each
     * fire, retry and timeout), and returns when the engine has settled at the end. Each step costs some real time
     * (10 to 30 ms on the JDBC store with H2): a task that fires every few seconds makes a long jump slow.
     *
     * @param duration how far to move the test's clock; zero or positive
     * @throws NullPointerException when {@code duration} is null
     * @throws IllegalArgumentException when the duration is negative
     * @throws AssertionError when the engine did not settle within {@code ax.test.await} at one of the steps
     */
    public void advance(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative()) {
            throw new IllegalArgumentException("a test's time moves forward only, not by " + duration);
        }
        long target = clock.nanoTime() + duration.toNanos();
        String what = "advance(" + duration + ")";
        awaitLeading(what, System.nanoTime());
        settle(what, System.nanoTime());
        int steps = 0;
        for (OptionalLong next = timer().nextDeadline();
                next.isPresent() && next.getAsLong() - target <= 0;
                next = timer().nextDeadline()) {
            moveTo(next.getAsLong());
            steps++;
            // each step's wait is bounded, not the whole call: an hour of a 5-second cron is 720 steps
            settle(what + " (step " + steps + ", at " + now() + ")", System.nanoTime());
        }
        moveTo(target);
        settle(what, System.nanoTime());
    }

    /**
     * Triggers {@code task} now, as an operator's "run now" would, and waits until its instance has ended, retries
     * included: the back-offs pass on the test's clock at once.
     *
     * @param task the task's name
     * @return the instance with its audit trail: SUCCESS, DEAD, CANCELLED or SKIPPED
     * @throws io.ax.core.UnknownTaskException when no task has that name
     * @throws AssertionError when it did not end within {@code ax.test.await}
     */
    public InstanceDetails runNow(String task) {
        return runNow(task, Map.of());
    }

    /**
     * Triggers {@code task} now with run parameters over its own (see {@link io.ax.core.AxScheduler#triggerNow(String,
     * Map)}), and waits until the instance has ended, retries included.
     *
     * @param task the task's name
     * @param params the run's parameters, each one the task declares
     * @return the instance with its audit trail: SUCCESS, DEAD, CANCELLED or SKIPPED
     * @throws io.ax.core.UnknownTaskException when no task has that name
     * @throws io.ax.core.InvalidTaskException when a parameter is not the task's, or the executor refuses the result
     * @throws AssertionError when it did not end within {@code ax.test.await}
     */
    public InstanceDetails runNow(String task, Map<String, String> params) {
        long startedNanos = System.nanoTime();
        awaitLeading("runNow(" + task + ")", startedNanos);
        return awaitEnd(engine.triggerNow(task, params), startedNanos);
    }

    /**
     * Waits until the instance has ended, moving time forward to each of the engine's deadlines on the way (the
     * instance's own fire time if it lies ahead, its back-offs), with whatever else falls due meanwhile.
     *
     * @param instanceId what {@link io.ax.core.AxScheduler#schedule} or a trigger returned
     * @return the instance with its audit trail: SUCCESS, DEAD, CANCELLED or SKIPPED
     * @throws AssertionError when it did not end within {@code ax.test.await}, or nothing in the engine is due that
     *     could end it
     */
    public InstanceDetails awaitEnd(String instanceId) {
        return awaitEnd(instanceId, System.nanoTime());
    }

    private InstanceDetails awaitEnd(String instanceId, long startedNanos) {
        String what = "the end of instance " + instanceId;
        awaitLeading(what, startedNanos);
        while (true) {
            // each settle has a bound of its own, and the whole wait one more: an instance that never ends must not
            // move the clock for ever
            settle(what, System.nanoTime());
            Optional<InstanceDetails> details = engine.find(instanceId);
            if (details.isPresent() && details.get().instance().state().isFinal()) {
                settle(what, System.nanoTime());
                return engine.find(instanceId).orElseThrow();
            }
            OptionalLong next = timer().nextDeadline();
            if (next.isEmpty()) {
                throw new AssertionError("Instance " + instanceId + " has not ended and nothing in the engine is due"
                        + " that could end it: "
                        + details.map(AxTester::describe).orElse("no store knows it"));
            }
            if (System.nanoTime() - startedNanos > await.toNanos()) {
                throw new AssertionError("Instance " + instanceId + " has not ended within " + await
                        + " (ax.test.await) of real time, the test's clock moved on to " + now() + ": "
                        + details.map(AxTester::describe).orElse("no store knows it"));
            }
            moveTo(next.getAsLong());
        }
    }

    /** Waits until the engine has settled, without moving time. */
    public void awaitQuiet() {
        long startedNanos = System.nanoTime();
        awaitLeading("awaitQuiet()", startedNanos);
        settle("awaitQuiet()", startedNanos);
    }

    /**
     * Looks an instance up, without waiting and without moving time.
     *
     * @param instanceId the instance's id
     * @return the instance with its audit trail; empty if no store knows it
     */
    public Optional<InstanceDetails> find(String instanceId) {
        return engine.find(instanceId);
    }

    /**
     * Lists a task's newest instances, PERSISTENT and MEMORY alike.
     *
     * @param task the task's name
     * @return at most 500 of its instances, newest fire time first; empty for a task that has none
     */
    public List<TaskInstance> instances(String task) {
        return engine.instancesOf(task, PAGE);
    }

    /**
     * Finds the task's finished instance with the latest fire time, among its 500 newest ({@link #instances}). That is
     * the one that ended last unless instances overlap.
     *
     * @param task the task's name
     * @return the instance with its audit trail: SUCCESS, DEAD, CANCELLED or SKIPPED
     * @throws AssertionError when none of those instances has ended
     */
    public InstanceDetails lastEnded(String task) {
        return instances(task).stream()
                .filter(i -> i.state().isFinal())
                .findFirst()
                .flatMap(i -> engine.find(i.id()))
                .orElseThrow(() -> new AssertionError("No instance of task '" + task + "' has ended by " + now()
                        + "; its instances: " + instances(task)));
    }

    /**
     * Reads the dead letter of a DEAD instance.
     *
     * @param instanceId the instance's id
     * @return its dead letter; empty when it has none (it is not DEAD, or is unknown)
     */
    public Optional<DeadLetter> deadLetter(String instanceId) {
        return engine.store().deadLetter(instanceId);
    }

    private VirtualTimer timer() {
        return timers.timer();
    }

    private void moveTo(long deadline) {
        long step = deadline - clock.nanoTime();
        if (step > 0) {
            clock.advance(Duration.ofNanos(step));
        }
        timer().wake();
    }

    /** Waits until the engine leads its cluster: before that it plans no fire. */
    private void awaitLeading(String what, long startedNanos) {
        while (true) {
            ClusterView view = engine.status().cluster();
            if (engine.isRunning() && view.role() == ClusterView.Role.LEADER) {
                return;
            }
            if (System.nanoTime() - startedNanos > await.toNanos()) {
                throw new AssertionError(what + ": this test's AX engine "
                        + (engine.isRunning() ? "" : "(not running) ")
                        + "did not lead its cluster within " + await + " (leader: " + view.leader() + ", live: "
                        + view.liveNodes() + "). Give each test context a database of its own, such as an embedded"
                        + " one with a unique name.");
            }
            LockSupport.parkNanos(READING_EVERY_NANOS);
        }
    }

    /**
     * Waits until the engine has settled for {@link #CALM_READINGS} readings in a row with nothing reported between
     * them; attempts that still run after the patience, with nothing else to do, are left running.
     */
    private void settle(String what, long startedNanos) {
        long runningSince = 0;
        long seen = -1;
        int calm = 0;
        while (true) {
            VirtualTimer timer = timer();
            long mark = timer.activity() + activity.events();
            boolean quiet = timer.settled() && engine.status().isQuiet();
            calm = quiet && mark == seen ? calm + 1 : 0;
            if (calm >= CALM_READINGS) {
                return;
            }
            seen = mark;
            long now = System.nanoTime();
            if (!quiet
                    && engine.status().executing() > 0
                    && timer.settled()
                    && engine.status().busyWith().equals(POOLS)) {
                if (runningSince == 0) {
                    runningSince = now;
                } else if (now - runningSince > patience.toNanos()) {
                    return; // a handler that blocks in real time: let time move past it (its timeout, say)
                }
            } else {
                runningSince = 0;
            }
            if (now - startedNanos > await.toNanos()) {
                throw new AssertionError(what + ": the engine did not settle within " + await + " (ax.test.await) at "
                        + now()
                        + ": " + engine.status().executing() + " attempt(s) running; busy: "
                        + engine.status().busyWith() + "; timer: "
                        + timer.describe());
            }
            LockSupport.parkNanos(READING_EVERY_NANOS);
        }
    }

    static String describe(InstanceDetails details) {
        TaskInstance i = details.instance();
        return i.taskName() + " " + i.id() + " " + i.state() + " (attempt " + i.attempt() + ", fire time "
                + i.scheduledTime() + "), audit trail:" + trail(details.auditTrail());
    }

    static String trail(List<AuditEntry> trail) {
        if (trail.isEmpty()) {
            return " (empty)";
        }
        return trail.stream()
                .map(e -> "\n  " + e.at() + " " + (e.from() == null ? "" : e.from() + " -> ") + e.to() + " (attempt "
                        + e.attempt() + (e.reason().isEmpty() ? "" : ", " + e.reason()) + ")")
                .collect(Collectors.joining());
    }
}
