package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.ScheduleRequest;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.test.RecordingExecutor;
import io.ax.test.jdbc.TestDatabase;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Nothing due is forgotten: a row the store holds due runs within a bound whatever this node holds of it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresDueRowsTest {

    private static final String PREFIX = "axdue_";
    /** The window is 20 s: a row held here as on its way and overdue in the store is dispatched again after 10 s. */
    private static final Duration WINDOW = Duration.ofSeconds(20);

    private final TestDatabase database = TestDatabase.POSTGRESQL;
    private final RecordingExecutor executor = new RecordingExecutor();
    private JdbcTemplate db;
    private JdbcInstanceStore store;
    private AxEngine engine;

    @BeforeAll
    void createSchema() {
        database.migrate(PREFIX);
    }

    @BeforeEach
    void emptyTables() {
        executor.reset();
        store = database.emptyStore(PREFIX);
        db = new JdbcTemplate(database.dataSource());
    }

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.stop();
        }
    }

    @Test
    void aRowDueInTheStoreRunsThoughTheWheelHoldsItForLater() {
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId("n1")
                .prefetchWindow(WINDOW)
                .shutdownAwait(Duration.ofSeconds(2))
                .build();
        engine.register(AxTask.builder("job")
                .target("test.job")
                .timeout(Duration.ofSeconds(20))
                .build());
        engine.start();
        String id = engine.schedule(ScheduleRequest.of("job").after(WINDOW.minusSeconds(1)));
        await().atMost(Duration.ofSeconds(10)).until(() -> engine.status().wheelSize() > 0); // loaded for later

        // the store says it is due now (the wheel's view and the store's disagree: the row is the truth)
        db.update(
                "UPDATE " + PREFIX + "instance SET scheduled_us = scheduled_us - ? WHERE id = ?",
                WINDOW.toNanos() / 1_000,
                id);
        long began = System.nanoTime();

        await().atMost(WINDOW.minusSeconds(4))
                .until(() -> store.find(id).orElseThrow().state() == InstanceState.SUCCESS);
        assertThat(Duration.ofNanos(System.nanoTime() - began))
                .as("before the wheel's own time for it")
                .isLessThan(WINDOW.minusSeconds(2));
        assertThat(executor.runsOf("job")).hasSize(1);
    }
}
