package io.ax.core.engine.writes;

import io.ax.core.engine.writes.RecentCommits.Commit;
import io.ax.core.logging.Loggers;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The file a node keeps of its recent commits while it runs ({@link RecentCommitsFolder}), for the others to take if
 * it crashes. Now and then it is written anew from the whole memory ({@link #rewrite}); in between, each batch of
 * commits is appended as it is remembered, before the write that made it is answered. So a crash of the process
 * ({@code kill -9}) leaves in the file every commit whose effect anyone could have seen: a handler started on a claim,
 * an acknowledged request. The appends go to the operating system, not to the disk: a crash of the host may lose the
 * last of them. Thread-safe: the writers append, one thread writes the file anew.
 */
public final class KeptCommits {

    private static final System.Logger LOG = Loggers.get(KeptCommits.class.getName());

    private final RecentCommitsFolder folder;
    private final String name;
    private final String nodeId;
    private final LongSupplier nanos;
    private final Object lock = new Object();
    /** Appends to the file; null before it is first written, after it is forgotten, or after a failed append. */
    private BufferedWriter out;
    /** When (on {@link #nanos}) the file was written: its lines' ages count from then. */
    private long writtenNanos;
    /** The commits told while the file is written anew, for the new file; null when it is not. */
    private List<Commit> whileRewritten;

    private boolean forgotten;

    /**
     * @param name the file's name, {@link RecentCommitsFolder#keptName}
     * @param nanos the monotonic clock of the memory this file keeps
     */
    public KeptCommits(RecentCommitsFolder folder, String name, String nodeId, LongSupplier nanos) {
        this.folder = folder;
        this.name = name;
        this.nodeId = nodeId;
        this.nanos = nanos;
    }

    /** The file's name in its folder. */
    public String name() {
        return name;
    }

    /** A batch of commits remembered: appended to the file. Never throws: a file that fails is written anew later. */
    void committed(List<Commit> batch) {
        synchronized (lock) {
            if (whileRewritten != null) {
                whileRewritten.addAll(batch);
            }
            if (out == null) {
                return;
            }
            try {
                append(out, batch, writtenNanos);
                out.flush();
            } catch (IOException e) {
                closeQuietly(out);
                out = null;
                LOG.log(
                        System.Logger.Level.WARNING,
                        "Node {0} could not append its commits to {1}: {2}; until the file is written anew, a crash"
                                + " of this node leaves its latest commits unnamed after a failover",
                        nodeId,
                        folder.folder().resolve(name),
                        e.toString());
            }
        }
    }

    /**
     * Writes the file anew from what {@code memory} remembers now, as of {@code now}, with the commits it is told of
     * meanwhile; appends go to the new file from then on.
     *
     * @throws UncheckedIOException when the folder cannot be written
     */
    public void rewrite(RecentCommits memory, Instant now) {
        long written;
        synchronized (lock) {
            if (forgotten) {
                return;
            }
            // told from now on: a commit remembered after the memory is read below is among them
            whileRewritten = new ArrayList<>();
            written = nanos.getAsLong();
        }
        RecentCommitsFolder.Aside aside = null;
        try {
            aside = folder.beginAside(name, nodeId, memory.remembered(written), now);
            synchronized (lock) {
                if (forgotten) {
                    aside.abandon();
                    return;
                }
                append(aside.out(), whileRewritten, written);
                BufferedWriter appending = aside.replace();
                aside = null;
                closeQuietly(out);
                out = appending;
                writtenNanos = written;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "could not keep the recent commits of " + nodeId + " in " + folder.folder(), e);
        } finally {
            if (aside != null) {
                aside.abandon();
            }
            synchronized (lock) {
                whileRewritten = null;
            }
        }
    }

    /** Stops keeping the file and deletes it: the node stops gracefully, and leaves its memory otherwise. */
    public void forget() {
        synchronized (lock) {
            forgotten = true;
            closeQuietly(out);
            out = null;
        }
        folder.forget(name);
    }

    private static void append(BufferedWriter to, List<Commit> batch, long writtenNanos) throws IOException {
        for (Commit c : batch) {
            RecentCommitsFolder.line(
                    to, c.instanceId(), c.state(), c.attempt(), c.at(), writtenNanos - c.recordedNanos());
        }
    }

    private static void closeQuietly(BufferedWriter w) {
        if (w == null) {
            return;
        }
        try {
            w.close();
        } catch (IOException ignored) {
            // the file is written anew, or deleted
        }
    }
}
