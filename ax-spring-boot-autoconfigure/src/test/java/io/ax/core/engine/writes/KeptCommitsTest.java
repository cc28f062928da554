package io.ax.core.engine.writes;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.InstanceState;
import io.ax.core.Transition;
import io.ax.core.engine.writes.RecentCommits.Remembered;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file a node keeps of its recent commits while it runs: a commit is in it as soon as it is remembered, not only
 * after the next time the file is written anew, so a node killed right after a commit leaves it for the others.
 */
class KeptCommitsTest {

    private static final Instant T = Instant.parse("2026-12-08T01:00:00Z");
    private static final Duration WINDOW = Duration.ofMinutes(2);

    @TempDir
    Path dir;

    private final AtomicLong nanos = new AtomicLong(TimeUnit.HOURS.toNanos(1));
    private final RecentCommits memory = new RecentCommits(10_000, WINDOW, nanos::get);

    private KeptCommits kept(RecentCommitsFolder folder) {
        KeptCommits kept = new KeptCommits(folder, RecentCommitsFolder.keptName("n1", T), "n1", nanos::get);
        memory.keepIn(kept);
        return kept;
    }

    private static Transition claim(String id) {
        return new Transition(id, InstanceState.SCHEDULED, InstanceState.RUNNING, 1, "n1", T, "claim");
    }

    private void advance(Duration d) {
        nanos.addAndGet(d.toNanos());
    }

    /** What another node takes of the file once it has gone unwritten for a while ({@code ago}). */
    private List<Remembered> takenAsCrashed(RecentCommitsFolder folder, KeptCommits kept, Duration ago)
            throws Exception {
        Path file = folder.folder().resolve(kept.name());
        Files.setLastModifiedTime(
                file, FileTime.from(Files.getLastModifiedTime(file).toInstant().minus(ago)));
        List<RecentCommitsFolder.Left> taken = folder.take(T, WINDOW, ago.minusSeconds(1), null);
        assertThat(taken).hasSize(1);
        assertThat(taken.get(0).graceful()).isFalse();
        return taken.get(0).commits();
    }

    @Test
    void aCommitIsInTheFileAsSoonAsItIsRememberedWithItsAge() throws Exception {
        RecentCommitsFolder folder = new RecentCommitsFolder(dir);
        KeptCommits kept = kept(folder);
        memory.changed(claim("before"));
        advance(Duration.ofSeconds(10));
        kept.rewrite(memory, T);
        advance(Duration.ofSeconds(2));

        memory.changed(claim("after")); // and the node is killed: no later writing of the file

        List<Remembered> left = takenAsCrashed(folder, kept, Duration.ofSeconds(5));
        assertThat(left).extracting(Remembered::instanceId).containsExactly("before", "after");
        // the file's time is that of the last commit appended: 5 s ago; the one before it was 12 s older
        assertThat(left.get(1).age()).isBetween(Duration.ofSeconds(5), Duration.ofSeconds(6));
        assertThat(left.get(0).age()).isBetween(Duration.ofSeconds(17), Duration.ofSeconds(18));
    }

    @Test
    void commitsBatchedTogetherAreAppendedTogether() throws Exception {
        RecentCommitsFolder folder = new RecentCommitsFolder(dir);
        KeptCommits kept = kept(folder);
        kept.rewrite(memory, T);

        memory.changed(List.of(claim("a"), claim("b"), claim("c")));
        memory.created(List.of(new io.ax.core.TaskInstance(
                "d", "task", T, InstanceState.SCHEDULED, 0, "n1", T, io.ax.core.InstanceOrigin.DELAYED, null)));

        assertThat(takenAsCrashed(folder, kept, Duration.ofSeconds(5)))
                .extracting(Remembered::instanceId, Remembered::state)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("a", InstanceState.RUNNING),
                        org.assertj.core.groups.Tuple.tuple("b", InstanceState.RUNNING),
                        org.assertj.core.groups.Tuple.tuple("c", InstanceState.RUNNING),
                        org.assertj.core.groups.Tuple.tuple("d", InstanceState.SCHEDULED));
    }

    @Test
    void noCommitIsLeftOutWhileTheFileIsWrittenAnewBesideTheWriters() throws Exception {
        RecentCommitsFolder folder = new RecentCommitsFolder(dir);
        KeptCommits kept = kept(folder);
        kept.rewrite(memory, T);
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong next = new AtomicLong();
        Thread[] writers = new Thread[2];
        for (int w = 0; w < writers.length; w++) {
            writers[w] = new Thread(
                    () -> {
                        while (writing.get()) {
                            long n = next.getAndIncrement();
                            memory.changed(List.of(claim("i-" + n), claim("j-" + n)));
                        }
                    },
                    "test-writer-" + w);
            writers[w].start();
        }
        for (int r = 0; r < 50; r++) {
            kept.rewrite(memory, T);
        }
        writing.set(false);
        for (Thread w : writers) {
            w.join(10_000);
        }

        Set<String> left = takenAsCrashed(folder, kept, Duration.ofSeconds(5)).stream()
                .map(Remembered::instanceId)
                .collect(Collectors.toSet());
        Set<String> remembered =
                memory.remembered().stream().map(Remembered::instanceId).collect(Collectors.toCollection(HashSet::new));
        assertThat(remembered).hasSizeGreaterThan(100);
        assertThat(left).containsAll(remembered);
    }

    @Test
    void aForgottenFileIsGoneAndLaterCommitsDoNotBringItBack() throws Exception {
        RecentCommitsFolder folder = new RecentCommitsFolder(dir);
        KeptCommits kept = kept(folder);
        kept.rewrite(memory, T);

        kept.forget();
        memory.changed(claim("late"));
        kept.rewrite(memory, T);

        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }
}
