package io.ax.core.engine.writes;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.InstanceState;
import io.ax.core.engine.writes.RecentCommits.Remembered;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecentCommitsFolderTest {

    private static final Instant T = Instant.parse("2026-12-07T17:00:00Z");
    private static final Duration WINDOW = Duration.ofMinutes(2);
    /** How long a kept file goes unwritten before it is taken: longer than any of these tests. */
    private static final Duration UNKEPT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    @Test
    void whatANodeLeavesIsTakenOnceWithItsAgesGrownByTheTimeSince() throws Exception {
        RecentCommitsFolder folder = new RecentCommitsFolder(dir.resolve("commits"));
        List<Remembered> left = List.of(
                new Remembered("d-1", InstanceState.SCHEDULED, 0, null, Duration.ofSeconds(30)),
                new Remembered("s-2", InstanceState.SUCCESS, 2, T.minusSeconds(1), Duration.ofSeconds(1)));
        Path file = folder.leave("n6", left, T);
        writtenAgo(file, Duration.ofSeconds(5));

        List<RecentCommitsFolder.Left> taken = folder.take(T, WINDOW, UNKEPT, null);

        assertThat(taken).hasSize(1);
        assertThat(taken.get(0).nodeId()).isEqualTo("n6");
        assertThat(taken.get(0).written()).isEqualTo(T);
        assertThat(taken.get(0).graceful()).isTrue();
        List<Remembered> commits = taken.get(0).commits();
        assertThat(commits)
                .extracting(Remembered::instanceId, Remembered::state, Remembered::attempt, Remembered::at)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("d-1", InstanceState.SCHEDULED, 0, null),
                        org.assertj.core.groups.Tuple.tuple("s-2", InstanceState.SUCCESS, 2, T.minusSeconds(1)));
        // the file's 5 s, and the few milliseconds this test took
        assertThat(commits.get(0).age()).isBetween(Duration.ofSeconds(35), Duration.ofSeconds(36));
        assertThat(commits.get(1).age()).isBetween(Duration.ofSeconds(6), Duration.ofSeconds(7));
        assertThat(folder.take(T, WINDOW, UNKEPT, null)).as("taken already").isEmpty();
        try (Stream<Path> files = Files.list(folder.folder())) {
            assertThat(files).as("nothing left behind").isEmpty();
        }
    }

    @Test
    void commitsOlderThanTheWindowWhenTakenAreDropped() throws Exception {
        RecentCommitsFolder folder = new RecentCommitsFolder(dir);
        Path file = folder.leave(
                "n1",
                List.of(
                        new Remembered("old", InstanceState.RUNNING, 1, T, Duration.ofSeconds(100)),
                        new Remembered("new", InstanceState.RUNNING, 1, T, Duration.ofSeconds(10))),
                T.plus(Duration.ofDays(1))); // a node whose clock is a day ahead: its time is not the file's
        writtenAgo(file, Duration.ofSeconds(30));

        List<RecentCommitsFolder.Left> taken = folder.take(T, WINDOW, UNKEPT, null);

        assertThat(taken.get(0).commits()).extracting(Remembered::instanceId).containsExactly("new");
    }

    /** Writes the kept file {@code name} of {@code nodeId} anew, holding {@code commit} alone. */
    private static void keep(RecentCommitsFolder folder, String name, String nodeId, Remembered commit) {
        RecentCommits memory = new RecentCommits(10, WINDOW, System::nanoTime);
        memory.adopt(List.of(commit));
        new KeptCommits(folder, name, nodeId, System::nanoTime).rewrite(memory, T);
    }

    /** As if the file had been written {@code ago}, on the file system's clock. */
    private static void writtenAgo(Path file, Duration ago) throws Exception {
        Files.setLastModifiedTime(
                file,
                java.nio.file.attribute.FileTime.from(
                        Files.getLastModifiedTime(file).toInstant().minus(ago)));
    }

    @Test
    void nothingRememberedLeavesNoFileAndAMissingFolderHasNothing() {
        RecentCommitsFolder folder = new RecentCommitsFolder(dir.resolve("none"));
        assertThat(folder.take(T, WINDOW, UNKEPT, null)).isEmpty();
        assertThat(folder.leave("n1", List.of(), T)).isNull();
        assertThat(dir.resolve("none")).doesNotExist();
    }

    @Test
    void aFileThatIsNotOneIsKeptAsideAndTheOthersAreTaken() throws Exception {
        RecentCommitsFolder folder = new RecentCommitsFolder(dir);
        Files.writeString(dir.resolve("n9.1.x.commits"), "something else\n");
        folder.leave("n2", List.of(new Remembered("i", InstanceState.RUNNING, 1, T, Duration.ZERO)), T);

        List<RecentCommitsFolder.Left> taken = folder.take(T, WINDOW, UNKEPT, null);

        assertThat(taken).extracting(RecentCommitsFolder.Left::nodeId).containsExactly("n2");
        assertThat(dir.resolve("n9.1.x.commits.unreadable")).exists();
    }

    @Test
    void aKeptFileIsTakenOnlyOnceItsNodeStoppedWritingItAndNeverByItsOwnNode() throws Exception {
        RecentCommitsFolder folder = new RecentCommitsFolder(dir);
        String n1 = RecentCommitsFolder.keptName("n1", T);
        String n2 = RecentCommitsFolder.keptName("n2", T);
        keep(folder, n1, "n1", new Remembered("a", InstanceState.RUNNING, 1, T, Duration.ZERO));
        keep(folder, n1, "n1", new Remembered("b", InstanceState.SUCCESS, 1, T, Duration.ZERO));
        keep(folder, n2, "n2", new Remembered("c", InstanceState.RUNNING, 1, T, Duration.ZERO));
        Duration unkeptAfter = Duration.ofSeconds(10);

        assertThat(folder.take(T, WINDOW, unkeptAfter, n2))
                .as("both still written")
                .isEmpty();

        writtenAgo(dir.resolve(n1), Duration.ofSeconds(11)); // n1 crashed 11 s ago
        writtenAgo(dir.resolve(n2), Duration.ofSeconds(11)); // n2 froze: it looks itself
        List<RecentCommitsFolder.Left> taken = folder.take(T, WINDOW, unkeptAfter, n2);

        assertThat(taken).hasSize(1);
        assertThat(taken.get(0).nodeId()).isEqualTo("n1");
        assertThat(taken.get(0).graceful()).isFalse();
        assertThat(taken.get(0).commits()).extracting(Remembered::instanceId).containsExactly("b");
        assertThat(dir.resolve(n2)).as("its own").exists();

        folder.forget(n2);
        assertThat(dir.resolve(n2)).doesNotExist();
    }

    @Test
    void nodesThatLookTogetherTakeEachFileOnce() throws Exception {
        RecentCommitsFolder folder = new RecentCommitsFolder(dir);
        for (int n = 0; n < 20; n++) {
            folder.leave("n" + n, List.of(new Remembered("i" + n, InstanceState.RUNNING, 1, T, Duration.ZERO)), T);
        }
        ConcurrentLinkedQueue<String> takenBy = new ConcurrentLinkedQueue<>();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> lookers = new ArrayList<>();
        IntStream.range(0, 4).forEach(i -> {
            Thread t = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                new RecentCommitsFolder(dir).take(T, WINDOW, UNKEPT, null).forEach(l -> takenBy.add(l.nodeId()));
            });
            t.start();
            lookers.add(t);
        });
        go.countDown();
        for (Thread t : lookers) {
            t.join(10_000);
        }

        assertThat(takenBy).hasSize(20).doesNotHaveDuplicates();
    }
}
