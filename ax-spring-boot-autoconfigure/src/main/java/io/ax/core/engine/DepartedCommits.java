package io.ax.core.engine;

import io.ax.core.clock.AxClock;
import io.ax.core.engine.writes.KeptCommits;
import io.ax.core.engine.writes.RecentCommits;
import io.ax.core.engine.writes.RecentCommitsFolder;
import io.ax.core.logging.Loggers;
import io.ax.core.store.InstanceStore;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Makes what a node remembers of its recent commits outlive it, through a {@link RecentCommitsFolder}: every {@code
 * every} the node writes its memory to a file of its own when it changed, appends each commit to it in between
 * ({@link KeptCommits}), and at a graceful stop it deletes that file and leaves its memory in another. Every {@code every}, and once at the start, it takes what others (or this node
 * before a restart) left as they stopped, and the files of nodes that stopped writing theirs for {@code unkeptAfter}
 * (they crashed), checks it against the store at once, and keeps it with its own, so that a failover it sees later
 * checks those commits too. Without it, a failover shortly after a node's stop or crash loses that node's last commits
 * unnamed; with it, only what a crashed host had not yet written to its disk. What is missing when taken
 * is reported by {@link StoreRegressions} (nothing is fenced: the writes lost are another node's, or this node's
 * before it started). Owns the {@code ax-recent-commits} thread.
 */
final class DepartedCommits {

    private static final System.Logger LOG = Loggers.get(AxEngine.class.getName());

    private final String nodeId;
    private final RecentCommitsFolder folder;
    private final RecentCommits commits;
    private final InstanceStore store;
    private final StoreRegressions regressions;
    private final AxClock clock;
    private final LongSupplier nanos;
    private final Duration window;
    private final Duration every;
    private final Duration unkeptAfter;
    /** The file this node keeps while it runs. */
    private final KeptCommits kept;
    /** {@link RecentCommits#changes()} when the kept file was last written; -1 before. */
    private long keptChanges = -1;
    /** When (on {@link #nanos}) the kept file was last written anew. */
    private long keptNanos;
    /** What was taken and not yet checked (the store did not answer): checked again at the next look. */
    private final List<RecentCommitsFolder.Left> unchecked = new ArrayList<>();

    private ScheduledExecutorService thread;

    DepartedCommits(
            String nodeId,
            RecentCommitsFolder folder,
            RecentCommits commits,
            InstanceStore store,
            StoreRegressions regressions,
            AxClock clock,
            LongSupplier nanos,
            Duration window,
            Duration every,
            Duration unkeptAfter) {
        this.nodeId = nodeId;
        this.folder = folder;
        this.commits = commits;
        this.store = store;
        this.regressions = regressions;
        this.clock = clock;
        this.nanos = nanos;
        this.window = window;
        this.every = every;
        this.unkeptAfter = unkeptAfter;
        this.kept = new KeptCommits(folder, RecentCommitsFolder.keptName(nodeId, clock.instant()), nodeId, nanos);
    }

    /** Looks at the folder now, then every {@code every}. */
    synchronized void start() {
        if (thread != null) {
            return;
        }
        ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> {
            Thread th = new Thread(r, "ax-recent-commits");
            th.setDaemon(true);
            return th;
        });
        t.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        commits.keepIn(kept); // appended from its first writing on
        t.scheduleWithFixedDelay(this::lookQuietly, 0, every.toMillis(), TimeUnit.MILLISECONDS);
        thread = t;
    }

    /**
     * Stops looking, then leaves this node's memory in the folder: after its last writes, so that it holds them.
     * Never throws.
     */
    void stopAndLeave() {
        ScheduledExecutorService t;
        synchronized (this) {
            t = thread;
            thread = null;
        }
        if (t != null) {
            // not interrupted: a file taken and half read would be put aside as unreadable
            t.shutdown();
            try {
                t.awaitTermination(every.toMillis() + 1_000, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        List<RecentCommits.Remembered> mine = commits.remembered();
        try {
            kept.forget(); // a stop, not a crash: what follows is the whole memory
            java.nio.file.Path left = folder.leave(nodeId, mine, clock.instant());
            if (left != null) {
                LOG.log(
                        Level.INFO,
                        "Node {0} left its {1} recent commits in {2}, for a node that runs on to check after a"
                                + " failover",
                        nodeId,
                        mine.size(),
                        left);
            }
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "Node {0} could not leave its {1} recent commits for the nodes that run on: {2}; a failover that"
                            + " loses them now is not named",
                    nodeId,
                    mine.size(),
                    e.toString());
        }
    }

    private void lookQuietly() {
        try {
            look();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Node {0} could not look for recent commits left by others: {1}", nodeId, e);
        }
    }

    /**
     * Takes what was left, keeps it, and checks it with what is still unchecked; then writes this node's own file
     * when its memory changed.
     */
    void look() {
        for (RecentCommitsFolder.Left left : folder.take(clock.instant(), window, unkeptAfter, kept.name())) {
            if (left.commits().isEmpty()) {
                continue; // all older than the window by now, or a node that had committed nothing
            }
            commits.adopt(left.commits()); // a failover seen from now on checks them too
            unchecked.add(left);
            LOG.log(
                    Level.INFO,
                    "Node {0} took over the {1} recent commits node {2} {3} at {4}",
                    nodeId,
                    left.commits().size(),
                    left.nodeId(),
                    left.graceful()
                            ? "left as it stopped"
                            : "last wrote before it stopped writing it (it crashed or froze)",
                    left.written());
        }
        long changes = commits.changes();
        long now = nanos.getAsLong();
        // written anew when it changed, and before it looks unkept to the others while this node merely idles
        if (changes != keptChanges || now - keptNanos >= unkeptAfter.toNanos() / 2) {
            kept.rewrite(commits, clock.instant());
            keptChanges = changes;
            keptNanos = now;
        }
        while (!unchecked.isEmpty()) {
            RecentCommitsFolder.Left left = unchecked.get(0);
            RecentCommits check = new RecentCommits(Math.max(1, left.commits().size()), window, nanos);
            check.adopt(left.commits());
            List<String> missing;
            try {
                missing = check.missingFrom(store);
            } catch (RuntimeException e) {
                LOG.log(
                        Level.WARNING,
                        "Node {0} could not check the recent commits node {1} left against the store: {2}; it tries"
                                + " again in {3}",
                        nodeId,
                        left.nodeId(),
                        e.toString(),
                        every);
                return;
            }
            unchecked.remove(0);
            if (!missing.isEmpty()) {
                regressions.leftMissing(left.nodeId(), left.written(), left.graceful(), missing, check.size());
            }
        }
    }
}
