package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.ax.core.AuditEntry;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.Backoff;
import io.ax.core.InstanceState;
import io.ax.core.RetryPolicy;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.test.RecordingExecutor;
import io.ax.test.jdbc.TestDatabase;
import io.ax.test.net.FaultProxy;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * A transactional attempt whose database connection is cut while its transaction is open (a real cut, through a
 * {@link FaultProxy}, between the handler's write and the success): nothing of it commits, the attempt is recorded
 * FAILED once the database answers again, and the retry's write is the only one, read over a direct connection.
 */
class PostgresTransactionalOutageTest {

    private static final String PREFIX = "axtxout_";
    private static final TestDatabase PG = TestDatabase.POSTGRESQL;
    private static final Duration BOUND = Duration.ofSeconds(30);

    private FaultProxy proxy;
    private HikariDataSource pool;
    private AxEngine engine;

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.stop();
        }
        if (pool != null) {
            pool.close();
        }
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void aConnectionCutInsideTheTransactionCommitsNothingAndTheRetryWritesOnce() throws InterruptedException {
        PG.migrate(PREFIX);
        PG.emptyStore(PREFIX);
        JdbcTemplate direct = new JdbcTemplate(PG.dataSource());
        direct.execute("DROP TABLE IF EXISTS " + PREFIX + "effect");
        direct.execute("CREATE TABLE " + PREFIX + "effect (instance_id VARCHAR(64) NOT NULL, attempt INT NOT NULL)");

        URI target = URI.create(PG.url().substring("jdbc:".length()));
        proxy = FaultProxy.start(target.getHost(), target.getPort());
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:postgresql://127.0.0.1:" + proxy.port() + target.getPath()
                + "?socketTimeout=4&connectTimeout=2&loginTimeout=3");
        config.setUsername(PG.user());
        config.setPassword(PG.password());
        config.setPoolName("ax-txout");
        config.setMaximumPoolSize(6);
        config.setConnectionTimeout(1_000);
        pool = new HikariDataSource(config);
        JdbcTemplate viaProxy = new JdbcTemplate(pool);

        CountDownLatch wrote = new CountDownLatch(1);
        CountDownLatch proceed = new CountDownLatch(1);
        RecordingExecutor executor = new RecordingExecutor().when("post", ctx -> {
            viaProxy.update(
                    "INSERT INTO " + PREFIX + "effect (instance_id, attempt) VALUES (?, ?)",
                    ctx.instanceId(),
                    ctx.attempt());
            if (ctx.attempt() == 1) {
                wrote.countDown();
                proceed.await(BOUND.toSeconds(), TimeUnit.SECONDS);
            }
            return AxResult.success();
        });
        engine = AxEngine.builder()
                .store(new JdbcInstanceStore(pool, PREFIX, Duration.ofSeconds(4)))
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId("node-txout")
                .transactions(new JdbcAttemptTransactions(new DataSourceTransactionManager(pool), pool))
                .shutdownAwait(Duration.ofSeconds(2))
                .build();
        engine.register(AxTask.builder("post")
                .target("test.post")
                .transactional(true)
                .timeout(Duration.ofSeconds(20))
                .retry(new RetryPolicy(2, Backoff.FIXED, Duration.ofMillis(100), Duration.ofMillis(100)))
                .build());
        engine.start();
        String id = engine.triggerNow("post");
        assertThat(wrote.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();

        proxy.cutAll(); // the attempt's transaction loses its connection with its write in it
        proceed.countDown();

        await().atMost(BOUND)
                .until(() -> "SUCCESS"
                        .equals(direct.queryForObject(
                                "SELECT state FROM " + PREFIX + "instance WHERE id = ?", String.class, id)));
        assertThat(direct.queryForList(
                        "SELECT attempt FROM " + PREFIX + "effect WHERE instance_id = ?", Integer.class, id))
                .as("the write of the attempt that lost its connection never committed; the retry's did")
                .containsExactly(2);
        List<AuditEntry> trail = engine.find(id).orElseThrow().auditTrail();
        assertThat(trail).extracting(AuditEntry::to).contains(InstanceState.FAILED, InstanceState.RETRYING);
        assertThat(trail.stream()
                        .filter(a -> a.to() == InstanceState.FAILED)
                        .findFirst()
                        .orElseThrow()
                        .reason())
                .contains("its success could not be recorded, its transaction was rolled back");
    }
}
