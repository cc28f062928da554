package io.ax.test.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.core.store.TaskDataStore;
import io.ax.core.store.TaskDataStore.TaskData;
import io.ax.core.store.TaskDataStore.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What every {@link TaskDataStore} promises: a value and its version read back as written, a write applied only
 * while the version it expects is the stored one, one winner among writers that expect the same version. Each store's
 * test extends it in a few lines.
 */
public abstract class TaskDataContract {

    private static final Instant AT = Instant.parse("2026-03-01T08:00:00.123456Z");

    /** The store under test; each test uses keys of its own. */
    protected abstract TaskDataStore taskData();

    private static String key(String what) {
        return "quartz:" + what + ":" + UUID.randomUUID();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static Writer writer(String instance, long token) {
        return new Writer(instance, token, AT);
    }

    @Test
    void aKeyNeverWrittenHasNoValue() {
        assertThat(taskData().read(key("none"))).isEmpty();
    }

    @Test
    void theFirstWriteStoresVersionOneWithItsWriter() {
        String key = key("first");
        assertThat(taskData().write(key, 0, bytes("count=1"), writer("inst-1", (3L << 20) | 1)))
                .isTrue();
        TaskData stored = taskData().read(key).orElseThrow();
        assertThat(stored.key()).isEqualTo(key);
        assertThat(stored.version()).isEqualTo(1);
        assertThat(stored.value()).isEqualTo(bytes("count=1"));
        assertThat(stored.writer().instanceId()).isEqualTo("inst-1");
        assertThat(stored.writer().fencingToken()).isEqualTo((3L << 20) | 1);
        assertThat(stored.writer().at()).isEqualTo(AT.truncatedTo(ChronoUnit.MICROS));
    }

    @Test
    void eachWriteThatExpectsTheStoredVersionMovesItOnByOne() {
        String key = key("counter");
        for (int n = 0; n < 5; n++) {
            assertThat(taskData().write(key, n, bytes("count=" + (n + 1)), writer("inst-" + n, 1)))
                    .isTrue();
        }
        TaskData stored = taskData().read(key).orElseThrow();
        assertThat(stored.version()).isEqualTo(5);
        assertThat(stored.value()).isEqualTo(bytes("count=5"));
        assertThat(stored.writer().instanceId()).isEqualTo("inst-4");
    }

    @Test
    void aWriteThatExpectsAnOlderVersionChangesNothing() {
        String key = key("stale");
        taskData().write(key, 0, bytes("v1"), writer("a", 1));
        taskData().write(key, 1, bytes("v2"), writer("b", 1));

        assertThat(taskData().write(key, 1, bytes("stale"), writer("a-again", 2)))
                .as("a run that read version 1 after version 2 was written")
                .isFalse();
        assertThat(taskData().write(key, 0, bytes("first again"), writer("c", 1)))
                .as("a second first write")
                .isFalse();
        assertThat(taskData().write(key, 7, bytes("from the future"), writer("d", 1)))
                .isFalse();
        TaskData stored = taskData().read(key).orElseThrow();
        assertThat(stored.version()).isEqualTo(2);
        assertThat(stored.value()).isEqualTo(bytes("v2"));
        assertThat(stored.writer().instanceId()).isEqualTo("b");
    }

    @Test
    void aWriteThatExpectsAVersionOfAKeyNeverWrittenChangesNothing() {
        String key = key("absent");
        assertThat(taskData().write(key, 3, bytes("x"), writer("a", 1))).isFalse();
        assertThat(taskData().read(key)).isEmpty();
    }

    @Test
    void oneOfManyWritersThatExpectTheSameVersionWins() throws Exception {
        for (long expected : new long[] {0, 1}) {
            String key = key("race");
            if (expected == 1) {
                taskData().write(key, 0, bytes("seed"), writer("seed", 1));
            }
            int threads = 8;
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                CountDownLatch go = new CountDownLatch(1);
                List<Future<Boolean>> calls = new ArrayList<>();
                for (int i = 0; i < threads; i++) {
                    String who = "w" + i;
                    calls.add(pool.submit(() -> {
                        go.await();
                        return taskData().write(key, expected, bytes(who), writer(who, 1));
                    }));
                }
                go.countDown();
                List<String> winners = new ArrayList<>();
                for (int i = 0; i < threads; i++) {
                    if (calls.get(i).get(30, TimeUnit.SECONDS)) {
                        winners.add("w" + i);
                    }
                }
                assertThat(winners).as("expecting version " + expected).hasSize(1);
                TaskData stored = taskData().read(key).orElseThrow();
                assertThat(stored.version()).isEqualTo(expected + 1);
                assertThat(new String(stored.value(), StandardCharsets.UTF_8)).isEqualTo(winners.get(0));
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void valuesOfAnyBytesAndTheLargestSizeReadBackWhole() {
        String key = key("bytes");
        byte[] value = new byte[TaskDataStore.MAX_VALUE_SIZE];
        for (int i = 0; i < value.length; i++) {
            value[i] = (byte) (i * 31);
        }
        assertThat(taskData().write(key, 0, value, writer("a", 1))).isTrue();
        assertThat(taskData().read(key).orElseThrow().value()).isEqualTo(value);
        assertThat(taskData().write(key, 1, new byte[0], writer("b", 1))).isTrue();
        assertThat(taskData().read(key).orElseThrow().value()).isEmpty();
    }

    @Test
    void badArgumentsAreRefusedWithAMessage() {
        assertThatThrownBy(() -> taskData().read(""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 to 200 characters");
        assertThatThrownBy(() -> taskData().write("k".repeat(201), 0, new byte[0], writer("a", 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 to 200 characters");
        assertThatThrownBy(() -> taskData().write(key("neg"), -1, new byte[0], writer("a", 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected version");
        assertThatThrownBy(() ->
                        taskData().write(key("big"), 0, new byte[TaskDataStore.MAX_VALUE_SIZE + 1], writer("a", 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("more than the " + TaskDataStore.MAX_VALUE_SIZE);
    }
}
