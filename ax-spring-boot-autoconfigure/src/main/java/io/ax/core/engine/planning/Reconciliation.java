package io.ax.core.engine.planning;

import io.ax.core.AxTask;
import io.ax.core.clock.AxClock;
import io.ax.core.engine.terms.Term;
import io.ax.core.engine.threads.EngineLog;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.StoredTask;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The owner's periodic check that every task with a trigger has its next fire: a series can stop when the write of
 * its next fire is lost (an owner deposed with the write queued, a write the store refused for good). Every period
 * ({@link #EVERY} by default), and soon after the store comes back from an outage, it asks the store which tasks have
 * an unfinished trigger fire; a task found without one at two looks in a row (so not one whose next fire is being
 * written right now) gets it again from its recorded next fire time, misfire policy included. Repairs are fenced
 * like every other decision, and a fire that exists already is never written twice (its key is unique).
 */
public final class Reconciliation {

    private static final System.Logger LOG = EngineLog.get();
    public static final Duration EVERY = Duration.ofSeconds(10);

    /** What a repair needs of the fire planner: the same decisions the series make on their own. */
    public interface Planner {
        void planFirst(AxTask task, List<FirePlanner.Pending> out);

        void planNext(AxTask task, Instant previous, Instant completed, List<FirePlanner.Pending> out);

        /** Writes the fires {@code term} decides, each fenced as its row is in that term, and waits for them. */
        void scheduleFires(List<FirePlanner.Pending> pending, Term term);
    }

    private final InstanceStore store;
    private final AxClock clock;
    private final Map<String, AxTask> tasks;
    private final Predicate<String> paused;
    private final Supplier<? extends Planner> planner;
    private final Duration every;
    /** Tasks without an unfinished fire at the last look; touched on ax-leader only. */
    private Set<String> suspects = Set.of();

    private long lastNanos = Long.MIN_VALUE;
    private volatile boolean soon;
    private final AtomicLong repaired = new AtomicLong();

    /**
     * @param tasks the registered tasks, as they change (read only)
     * @param paused whether a task is paused
     * @param planner gives the fire planner at each repair (it may be built after this class)
     */
    public Reconciliation(
            InstanceStore store,
            AxClock clock,
            Map<String, AxTask> tasks,
            Predicate<String> paused,
            Supplier<? extends Planner> planner,
            Duration every) {
        this.store = store;
        this.clock = clock;
        this.tasks = tasks;
        this.paused = paused;
        this.planner = planner;
        this.every = every;
    }

    /** Looks at the next tick rather than at the next period (the store came back, say). */
    public void soon() {
        soon = true;
    }

    /** On ax-leader while this node leads: looks when the period has passed or a look was asked for. */
    public void tick(Term term) {
        long now = clock.nanoTime();
        if (!soon && lastNanos != Long.MIN_VALUE && now - lastNanos < every.toNanos()) {
            return;
        }
        soon = false;
        lastNanos = now;
        look(term);
    }

    /** Series repaired since this node started. */
    public long repaired() {
        return repaired.get();
    }

    void look(Term term) {
        Set<String> live = store.tasksWithLiveFire();
        Set<String> missing = new TreeSet<>();
        for (AxTask task : tasks.values()) {
            if (task.trigger().firesOnItsOwn()
                    && term.decides(task.name())
                    && !live.contains(task.name())
                    && !paused.test(task.name())) { // a paused series has no fire, rightly
                missing.add(task.name());
            }
        }
        Set<String> broken = new TreeSet<>(missing);
        broken.retainAll(suspects);
        suspects = missing;
        if (broken.isEmpty()) {
            return;
        }
        Map<String, StoredTask> stored = new HashMap<>();
        store.findTasks().forEach(t -> stored.put(t.name(), t));
        Instant now = clock.instant();
        List<FirePlanner.Pending> planned = new ArrayList<>();
        for (String name : broken) {
            AxTask task = tasks.get(name);
            StoredTask recorded = stored.get(name);
            Instant next = recorded == null ? null : recorded.nextFireTime();
            if (task == null) {
                continue;
            }
            if (next == null) {
                planner.get().planFirst(task, planned);
            } else if (next.isAfter(now)) {
                // its recorded next fire was never written (or was taken away): that one, then
                planned.add(FirePlanner.seriesFire(task, next));
            } else {
                planner.get().planNext(task, next, now, planned);
            }
        }
        planner.get().scheduleFires(planned, term);
        repaired.addAndGet(broken.size());
        suspects = Set.of();
        LOG.log(
                Level.WARNING,
                "AX found {0} task(s) whose series had stopped and gave them their next fire again: {1}",
                broken.size(),
                broken);
    }
}
