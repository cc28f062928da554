package io.ax.core.engine.writes;

import io.ax.core.InstanceState;
import io.ax.core.engine.writes.RecentCommits.Remembered;
import io.ax.core.logging.Loggers;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A folder where a node that stops leaves what it remembers of its recent commits ({@link RecentCommits}), and where
 * a node that runs on takes it: what a stopping node committed in its last minutes may still be lost by a failover to
 * a standby that had not received it, and only a node that outlives it can check after that failover. Each stop
 * leaves one file; while it runs, a node also keeps one file of its memory up to date, which it deletes as it stops
 * and which the others take once it goes unwritten for too long (the node crashed). Every file is written aside and
 * moved in whole, and taken by one node only (moved to a name of its own before it is read), then deleted. One folder
 * serves one cluster: the nodes of one host, or a volume all of them mount. It holds no state but the folder's path;
 * what a node keeps while it runs is {@link KeptCommits}'s.
 */
public final class RecentCommitsFolder {

    /**
     * What one node left: as it stopped ({@code graceful}), or in the file it kept while it ran and stopped keeping
     * (it crashed, or froze for longer than the file may go unwritten).
     */
    public record Left(String nodeId, Instant written, List<Remembered> commits, boolean graceful) {}

    private static final System.Logger LOG = Loggers.get(RecentCommitsFolder.class.getName());
    private static final String HEADER = "ax-recent-commits 1";
    private static final String LEFT = ".commits";
    private static final String KEPT = ".live";
    private static final String TAKEN = ".taken-";
    private static final String WRITING = ".writing-";

    private final Path folder;

    public RecentCommitsFolder(Path folder) {
        this.folder = folder;
    }

    /** The folder. */
    public Path folder() {
        return folder;
    }

    /**
     * Leaves {@code commits} of {@code nodeId} for another node, as of {@code now}; nothing when there are none.
     *
     * @return the file written, or null
     * @throws UncheckedIOException when the folder cannot be written
     */
    public Path leave(String nodeId, List<Remembered> commits, Instant now) {
        if (commits.isEmpty()) {
            return null;
        }
        return write(safe(nodeId) + "." + now.toEpochMilli() + "." + random() + LEFT, nodeId, commits, now);
    }

    /** The name of the file a node keeps while it runs: one per process. */
    public static String keptName(String nodeId, Instant started) {
        return safe(nodeId) + "." + started.toEpochMilli() + "." + random() + KEPT;
    }

    /**
     * Begins the file {@code name} anew with {@code commits}, aside, open for more lines ({@link #line}) until it
     * {@link Aside#replace replaces} the file.
     */
    Aside beginAside(String name, String nodeId, List<Remembered> commits, Instant now) throws IOException {
        Files.createDirectories(folder);
        Path writing = folder.resolve(WRITING + name);
        BufferedWriter out = Files.newBufferedWriter(writing, StandardCharsets.UTF_8);
        try {
            head(out, nodeId, now);
            for (Remembered r : commits) {
                line(
                        out,
                        r.instanceId(),
                        r.state(),
                        r.attempt(),
                        r.at(),
                        r.age().toNanos());
            }
        } catch (IOException | RuntimeException e) {
            out.close();
            Files.deleteIfExists(writing);
            throw e;
        }
        return new Aside(writing, folder.resolve(name), out);
    }

    /** A file written aside, still open: {@link #replace} moves it in whole over the file it stands for. */
    record Aside(Path writing, Path file, BufferedWriter out) {

        /** Closes it, moves it over its file, and opens that file for lines to append. */
        BufferedWriter replace() throws IOException {
            out.close();
            move(writing, file);
            return Files.newBufferedWriter(file, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
        }

        /** Closes and deletes it: it replaces nothing. */
        void abandon() {
            try {
                out.close();
                Files.deleteIfExists(writing);
            } catch (IOException ignored) {
                // left under the writing name: deleted once old
            }
        }
    }

    private static void head(BufferedWriter out, String nodeId, Instant now) throws IOException {
        out.write(HEADER + "\n");
        out.write("node\t" + oneLine(nodeId) + "\n");
        out.write("written\t" + now + "\n");
    }

    /**
     * One commit's line. {@code ageNanos} counts from when the file was written ({@code written}); a commit appended
     * later has a negative age, and the latest of those tells how long after that the file was last written to.
     */
    static void line(BufferedWriter out, String instanceId, InstanceState state, int attempt, Instant at, long ageNanos)
            throws IOException {
        if (!oneLine(instanceId).equals(instanceId) || instanceId.indexOf('\t') >= 0) {
            return; // an id no line can hold (ids AX makes never are)
        }
        out.write(instanceId + "\t" + state.name() + "\t" + attempt + "\t" + (at == null ? "-" : at.toString()) + "\t"
                + ageNanos + "\n");
    }

    /** Deletes the file {@code name} this node kept: it stops gracefully, and leaves its memory otherwise. */
    public void forget(String name) {
        try {
            Files.deleteIfExists(folder.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException("could not delete " + folder.resolve(name), e);
        }
    }

    private Path write(String name, String nodeId, List<Remembered> commits, Instant now) {
        try {
            Aside aside = beginAside(name, nodeId, commits, now);
            aside.out().close();
            move(aside.writing(), aside.file());
            return aside.file();
        } catch (IOException e) {
            throw new UncheckedIOException("could not leave the recent commits of " + nodeId + " in " + folder, e);
        }
    }

    /**
     * Takes every file left in the folder, and every file kept by a node that has not written it for {@code
     * unkeptAfter} but {@code mine}: each is read and deleted, with its commits' ages grown by the time since it was
     * written, as the file system's clock tells (a file's modification time against that of a file written now): the
     * nodes' own clocks may be set apart. A file another node took and never deleted (it stopped while it read) is
     * deleted once old. A file that cannot be read is renamed aside with a WARNING.
     *
     * @param now this node's time, for what the file system cannot tell
     * @param mine the name of the file this node keeps, never taken; null for none
     * @throws UncheckedIOException when the folder cannot be listed
     */
    public List<Left> take(Instant now, Duration window, Duration unkeptAfter, String mine) {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> all = Files.newDirectoryStream(folder)) {
            all.forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException("could not list " + folder, e);
        }
        if (files.isEmpty()) {
            return List.of();
        }
        Instant fileNow = fileSystemNow(now);
        List<Left> taken = new ArrayList<>();
        for (Path file : files) {
            String name = file.getFileName().toString();
            boolean left = name.endsWith(LEFT) && !name.startsWith(WRITING);
            boolean unkept = name.endsWith(KEPT)
                    && !name.startsWith(WRITING)
                    && !name.equals(mine)
                    && olderThan(file, fileNow, unkeptAfter);
            if (left || unkept) {
                Left l = takeOne(file, fileNow, window, left);
                if (l != null) {
                    taken.add(l);
                }
            } else if (name.contains(TAKEN) || name.startsWith(WRITING) || name.startsWith(".now-")) {
                deleteIfOlder(file, fileNow, window.multipliedBy(2));
            }
        }
        return taken;
    }

    /** The file system's time now: that of a file written now; {@code fallback} when none can be written. */
    private Instant fileSystemNow(Instant fallback) {
        Path probe = folder.resolve(".now-" + random());
        try {
            Files.write(probe, new byte[0]);
            return Files.getLastModifiedTime(probe).toInstant();
        } catch (IOException e) {
            return fallback;
        } finally {
            try {
                Files.deleteIfExists(probe);
            } catch (IOException ignored) {
                // a probe left behind is an empty file: deleted with the old ones
            }
        }
    }

    private static boolean olderThan(Path file, Instant now, Duration age) {
        try {
            return Files.getLastModifiedTime(file).toInstant().plus(age).isBefore(now);
        } catch (IOException gone) {
            return false;
        }
    }

    private Left takeOne(Path file, Instant now, Duration window, boolean graceful) {
        Path mine = file.resolveSibling(file.getFileName() + TAKEN + random());
        try {
            move(file, mine);
        } catch (NoSuchFileException gone) {
            return null; // another node took it first
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "Could not take {0}: {1}", file, e.toString());
            return null;
        }
        try {
            Left left = read(mine, now, window, graceful);
            Files.deleteIfExists(mine);
            return left;
        } catch (IOException | RuntimeException e) {
            Path aside = file.resolveSibling(file.getFileName() + ".unreadable");
            LOG.log(
                    System.Logger.Level.WARNING,
                    "The recent commits left in {0} could not be read ({1}): kept as {2}, not checked",
                    file,
                    e.toString(),
                    aside);
            try {
                move(mine, aside);
            } catch (IOException ignored) {
                // left under the taken name: deleted once old
            }
            return null;
        }
    }

    private static Left read(Path file, Instant now, Duration window, boolean graceful) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.size() < 3 || !HEADER.equals(lines.get(0))) {
            throw new IllegalArgumentException("not a file of recent commits");
        }
        String nodeId = field(lines.get(1), "node");
        Instant written = parseInstant(field(lines.get(2), "written"));
        Duration since = Duration.between(Files.getLastModifiedTime(file).toInstant(), now);
        if (since.isNegative()) {
            since = Duration.ZERO; // a file system whose times are coarser than the probe's
        }
        List<String[]> fields = new ArrayList<>(lines.size() - 3);
        long appendedFor = 0; // how long after it was written the file was last appended to: its time says when
        for (String line : lines.subList(3, lines.size())) {
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\t", -1);
            if (f.length != 5) {
                throw new IllegalArgumentException("a line of " + f.length + " fields: " + line);
            }
            fields.add(f);
            appendedFor = Math.max(appendedFor, -Long.parseLong(f[4]));
        }
        Duration sinceWritten = since.plusNanos(appendedFor);
        List<Remembered> commits = new ArrayList<>(fields.size());
        for (String[] f : fields) {
            Duration age = Duration.ofNanos(Long.parseLong(f[4])).plus(sinceWritten);
            if (age.compareTo(window) <= 0) {
                commits.add(new Remembered(
                        f[0],
                        InstanceState.valueOf(f[1]),
                        Integer.parseInt(f[2]),
                        "-".equals(f[3]) ? null : parseInstant(f[3]),
                        age.isNegative() ? Duration.ZERO : age));
            }
        }
        return new Left(nodeId, written.plusNanos(appendedFor), commits, graceful);
    }

    private static String field(String line, String name) {
        if (!line.startsWith(name + "\t")) {
            throw new IllegalArgumentException("expected " + name + ", found: " + line);
        }
        return line.substring(name.length() + 1);
    }

    private static Instant parseInstant(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("not a time: " + text, e);
        }
    }

    private static void deleteIfOlder(Path file, Instant now, Duration age) {
        try {
            if (Files.getLastModifiedTime(file).toInstant().plus(age).isBefore(now)) {
                Files.deleteIfExists(file);
            }
        } catch (IOException ignored) {
            // gone meanwhile, or not ours to delete: the next look tries again
        }
    }

    static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the folder cannot rename a file atomically", e);
        } catch (java.nio.file.FileAlreadyExistsException replaced) {
            // a kept file written anew, where an atomic move does not replace (it does on POSIX)
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static String safe(String nodeId) {
        String s = nodeId.replaceAll("[^A-Za-z0-9_-]", "_");
        return s.isEmpty() ? "node" : s.length() > 64 ? s.substring(0, 64) : s;
    }

    private static String oneLine(String s) {
        return s.replace('\n', ' ').replace('\r', ' ');
    }

    private static String random() {
        return HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
    }
}
