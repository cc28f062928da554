package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.Backoff;
import io.ax.core.Durability;
import io.ax.core.RetryPolicy;
import io.ax.core.ScheduleRequest;
import io.ax.core.store.InstanceStore;
import io.ax.test.RecordingExecutor;
import io.ax.test.jdbc.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The facade's Javadoc lists every thread of the engine with the class that owns it: a thread added without its line
 * there fails here. The engine runs on a shared store (H2), as a cluster node does, with a task that fails once, a
 * delayed task and a MEMORY one, so that every part has started its thread. Only threads started after the test
 * began count: the JVM runs other tests' engines and Redis links beside it.
 */
class EngineThreadListTest {

    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final String PREFIX = "axthr_";
    /** The facade's source, from the module's folder, where the build runs its tests. */
    private static final Path FACADE = Path.of("src/main/java/io/ax/core/engine/AxEngine.java");
    /** A thread's name as the Javadoc writes it: {@code ax-leader1}, {@code ax-<group>-<n>}, {@code ax-wheel}. */
    private static final Pattern LISTED = Pattern.compile("\\{@code (ax-[a-z0-9<>-]+)}");

    private final RecordingExecutor executor = new RecordingExecutor()
            .when("ok", context -> AxResult.success())
            .when("once", context -> context.attempt() == 1 ? AxResult.failure("first") : AxResult.success());
    private AxEngine engine;

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.close();
        }
    }

    @Test
    void everyThreadOfARunningEngineIsListedInTheFacadesJavadoc() throws IOException {
        // threads of other tests in this JVM (a cached Spring context's Redis probe, say) are not this engine's
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        TestDatabase.H2.migrate(PREFIX);
        InstanceStore store = TestDatabase.H2.emptyStore(PREFIX);
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId("node-t")
                .shutdownAwait(Duration.ofSeconds(2))
                .build();
        engine.register(AxTask.builder("ok").target("test.ok").build());
        engine.register(AxTask.builder("memory")
                .target("test.ok")
                .durability(Durability.MEMORY)
                .build());
        engine.register(AxTask.builder("once")
                .target("test.once")
                .retry(new RetryPolicy(1, Backoff.FIXED, Duration.ofMillis(10), Duration.ofMillis(10)))
                .build());
        engine.start();
        engine.triggerNow("once");
        engine.scheduleAll(List.of(ScheduleRequest.of("ok").after(Duration.ofMillis(50))));
        engine.scheduleAll(List.of(ScheduleRequest.of("memory").after(Duration.ofMillis(50))));
        await().atMost(BOUND)
                .until(() -> executor.runsOf("once").size() >= 2
                        && executor.runsOf("ok").size() >= 1
                        && executor.runsOf("memory").size() >= 1);

        Set<String> running = new TreeSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            // the test's own connection pool is named ax-test-h2 (its threads ax-test-h2:housekeeper, ...): not the
            // engine's
            if (!before.contains(t) && t.getName().matches("ax-[a-z-]+[0-9]*")) {
                running.add(stem(t.getName()));
            }
        }
        Set<String> listed = listedInTheFacade();
        assertThat(running)
                .as("threads named ax-* while the engine runs (their names without the number)")
                .contains("ax-wheel", "ax-dispatch", "ax-writer", "ax-cluster", "ax-partitions", "ax-default");
        assertThat(listed)
                .as("the threads the facade's Javadoc lists; a thread of the engine not among them needs its line")
                .containsAll(running);
    }

    /** A thread's name without its number: {@code ax-leader1} and {@code ax-default-3} give ax-leader, ax-default. */
    private static String stem(String name) {
        return name.replaceAll("[0-9]+$", "").replaceAll("-$", "");
    }

    private static Set<String> listedInTheFacade() throws IOException {
        String source = Files.readString(FACADE);
        String javadoc = source.substring(source.indexOf("<p>Threads,"), source.indexOf("public final class AxEngine"));
        Set<String> listed = new TreeSet<>();
        Matcher m = LISTED.matcher(javadoc.replaceAll("\\s*\\*\\s*", " "));
        while (m.find()) {
            String name = stem(m.group(1));
            // the pools' threads are written ax-<group>-<n>: every group's threads are listed by that one line
            listed.add(name.equals("ax-<group>-<n>") ? "ax-default" : name);
        }
        return listed;
    }
}
