package io.ax.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.autoconfigure.endpoint.AxDescriptors;
import io.ax.autoconfigure.endpoint.AxEndpoint;
import io.ax.autoconfigure.endpoint.AxEndpointAutoConfiguration;
import io.ax.autoconfigure.health.AxHealthAutoConfiguration;
import io.ax.autoconfigure.jdbc.AxJdbcAutoConfiguration;
import io.ax.autoconfigure.metrics.AxMetricsAutoConfiguration;
import io.ax.autoconfigure.redis.AxRedisAutoConfiguration;
import io.ax.core.AxIdempotency;
import io.ax.core.AxLock;
import io.ax.core.AxLocks;
import io.ax.core.cluster.EpochMirroringLease;
import io.ax.core.cluster.LeaderLease;
import io.ax.core.engine.AxEngine;
import io.ax.core.store.InMemoryIdempotency;
import io.ax.test.redis.RedisServerProcess;
import io.ax.test.redis.TestRedis;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/** With the application's Redis AX puts its locks, keys, wake-ups and clock there; without it, on the store. */
class AxRedisAutoConfigurationTest {

    private LettuceConnectionFactory factory;
    private final String prefix = TestRedis.randomPrefix("redis");

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        AxRedisAutoConfiguration.class, AxAutoConfiguration.class, AxHealthAutoConfiguration.class))
                .withBean(RedisConnectionFactory.class, () -> factory)
                .withPropertyValues("ax.redis.key-prefix=" + prefix);
    }

    @BeforeEach
    void connect() {
        factory = TestRedis.shared();
    }

    @AfterEach
    void cleanUp() {
        factory.destroy(); // the context's bean: destroyed with it, or here when no context took it
        LettuceConnectionFactory cleaner = TestRedis.shared();
        try {
            TestRedis.deleteKeys(cleaner, prefix);
        } finally {
            cleaner.destroy();
        }
    }

    @Test
    void putsLocksIdempotencyKeysAndTheClockOnRedisWhenTheApplicationHasIt() {
        runner().run(context -> {
            assertThat(context).hasSingleBean(AxLocks.class);
            StringRedisTemplate redis = new StringRedisTemplate(factory);

            try (AxLock lock =
                    context.getBean(AxLocks.class).tryAcquire("nightly").orElseThrow()) {
                assertThat(redis.opsForValue().get(prefix + "lock:nightly")).isEqualTo(lock.token());
            }
            assertThat(context.getBean(AxIdempotency.class).claim("order-9", Duration.ofMinutes(1)))
                    .isTrue();
            assertThat(redis.hasKey(prefix + "idem:order-9")).isTrue();
            assertThat(context.getBean(AxEngine.class).status().clusterTime())
                    .hasValueSatisfying(t -> assertThat(t.source()).isEqualTo("redis"));
        });
    }

    @Test
    void showsTheClusterClockOffsetInTheEndpointAndAsMeters() {
        runner().withConfiguration(
                        AutoConfigurations.of(AxMetricsAutoConfiguration.class, AxEndpointAutoConfiguration.class))
                .withBean(SimpleMeterRegistry.class)
                .withPropertyValues("management.endpoints.web.exposure.include=ax")
                .run(context -> {
                    AxDescriptors.ClusterTime shown =
                            context.getBean(AxEndpoint.class).node().clock().clusterTime();
                    assertThat(shown.source()).isEqualTo("redis");
                    assertThat(Math.abs(shown.offsetMicros())).isLessThan(1_000_000);
                    assertThat(shown.uncertaintyMicros()).isNotNegative().isLessThan(1_000_000);

                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.get("ax.clock.offset").gauge().value())
                            .isBetween(-1.0, 1.0)
                            .isEqualTo(shown.offsetMicros() / 1e6, org.assertj.core.data.Offset.offset(1e-6));
                    assertThat(registry.get("ax.clock.offset.uncertainty")
                                    .gauge()
                                    .value())
                            .isBetween(0.0, 1.0);
                });
    }

    @Test
    void leadsThroughALeaseOnRedisWhoseEpochTheDatabaseRecords() {
        runner().withConfiguration(AutoConfigurations.of(
                        org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration.class,
                        AxJdbcAutoConfiguration.class))
                .withPropertyValues(
                        "spring.datasource.url=jdbc:h2:mem:" + java.util.UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
                        "spring.datasource.username=sa",
                        "ax.cluster.lease-store=redis")
                .run(context -> {
                    assertThat(context.getBean(LeaderLease.class)).isInstanceOf(EpochMirroringLease.class);
                    AxEngine engine = context.getBean(AxEngine.class);
                    await().atMost(Duration.ofSeconds(10))
                            .until(() -> engine.status().cluster().isLeader());
                    long epoch = engine.status().cluster().epoch();
                    assertThat(epoch).isPositive();
                    StringRedisTemplate redis = new StringRedisTemplate(factory);
                    assertThat(redis.<String, String>opsForHash().get(prefix + "leader", "epoch"))
                            .isEqualTo(Long.toString(epoch));
                    assertThat(new org.springframework.jdbc.core.JdbcTemplate(
                                            context.getBean(javax.sql.DataSource.class))
                                    .queryForObject("SELECT epoch FROM ax_leader", Long.class))
                            .as("recorded in the database, where it fences the leader's writes")
                            .isEqualTo(epoch);
                });
    }

    @Test
    void keepsThePermitsOfLimitsOnRedisWhenAskedAndRunsALimitedTaskWithThem() {
        runner().withConfiguration(AutoConfigurations.of(
                        org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration.class,
                        AxJdbcAutoConfiguration.class))
                .withBean(MutexJob.class, () -> new MutexJob(new StringRedisTemplate(factory), prefix))
                .withPropertyValues(
                        "spring.datasource.url=jdbc:h2:mem:" + java.util.UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
                        "spring.datasource.username=sa",
                        "ax.redis.permits=true",
                        // the permits' first era waits out a quarantine of lease plus heartbeat
                        "ax.cluster.heartbeat=200ms",
                        "ax.cluster.lease=1s",
                        "ax.cluster.ack-timeout=500ms")
                .run(context -> {
                    String id = context.getBean(AxEngine.class).triggerNow("export");
                    MutexJob job = context.getBean(MutexJob.class);
                    assertThat(job.ran.await(20, java.util.concurrent.TimeUnit.SECONDS))
                            .isTrue();
                    assertThat(job.heldWhileRunning).as("its permit, in Redis").isEqualTo("[" + id + "|1]");
                });
    }

    /** A job under a mutex, which looks into Redis for its own permit while it runs. */
    static class MutexJob {
        final java.util.concurrent.CountDownLatch ran = new java.util.concurrent.CountDownLatch(1);
        private final StringRedisTemplate redis;
        private final String prefix;
        volatile String heldWhileRunning;

        MutexJob(StringRedisTemplate redis, String prefix) {
            this.redis = redis;
            this.prefix = prefix;
        }

        @io.ax.core.AxJob(name = "export", mutex = "one")
        public void export() {
            heldWhileRunning = String.valueOf(redis.opsForHash().keys(prefix + "{permits}:at-once:mutex:one"));
            ran.countDown();
        }
    }

    @Test
    void permitsOnRedisWithoutRedisFailStartUpSayingWhy() {
        runner().withPropertyValues("ax.redis.permits=true", "ax.redis.enabled=false")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("ax.redis.permits=true keeps the permits of cluster-wide limits on"
                                + " Redis, and this application has no RedisConnectionFactory"));
    }

    @Test
    void aLeaseOnRedisWithoutADatabaseFailsStartUpSayingWhy() {
        runner().withPropertyValues("ax.cluster.lease-store=redis")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("ax.cluster.lease-store=redis needs the JDBC store"));
    }

    @Test
    void aLeaseOnRedisWithoutRedisFailsStartUpSayingWhy() {
        runner().withPropertyValues("ax.cluster.lease-store=redis", "ax.redis.enabled=false")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("ax.cluster.lease-store=redis needs Redis"));
    }

    @Test
    void keepsEverythingOnTheStoreWhenRedisIsTurnedOff() {
        runner().withPropertyValues("ax.redis.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(AxLocks.class);
            assertThat(context.getBean(AxIdempotency.class)).isInstanceOf(InMemoryIdempotency.class);
        });
    }

    @Test
    void backsOffWhenSpringDataRedisIsAbsent() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AxRedisAutoConfiguration.class, AxAutoConfiguration.class))
                .withClassLoader(new FilteredClassLoader(RedisConnectionFactory.class))
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(AxLocks.class);
                    assertThat(context.getBean(AxIdempotency.class)).isInstanceOf(InMemoryIdempotency.class);
                });
    }

    @Test
    void aRenewPeriodNotBelowTheTtlFailsStartUpNamingBoth() {
        runner().withPropertyValues("ax.redis.lock.ttl=2s", "ax.redis.lock.renew=2s")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("ax.redis.lock.renew")
                        .hasMessageContaining("ax.redis.lock.ttl"));
    }

    @Test
    void theHealthShowsRedisAsADetailAndStaysUpWhileRedisIsDown() {
        try (RedisServerProcess server = RedisServerProcess.startNew()) {
            LettuceConnectionFactory privateRedis = TestRedis.factory("127.0.0.1", server.port());
            try {
                new ApplicationContextRunner()
                        .withConfiguration(AutoConfigurations.of(
                                AxRedisAutoConfiguration.class,
                                AxAutoConfiguration.class,
                                AxHealthAutoConfiguration.class))
                        .withBean(RedisConnectionFactory.class, () -> privateRedis)
                        .withPropertyValues("ax.redis.retry=200ms")
                        .run(context -> {
                            HealthIndicator health = context.getBean("axHealthIndicator", HealthIndicator.class);
                            assertThat(redisDetail(health.health(true))).containsEntry("status", "UP");

                            server.kill();
                            // a call notices; the keys go to the store meanwhile
                            assertThat(context.getBean(AxIdempotency.class).claim("k", Duration.ofMinutes(1)))
                                    .isTrue();
                            Health down = health.health(true);
                            assertThat(down.getStatus()).isEqualTo(Status.UP);
                            assertThat(redisDetail(down).get("status").toString())
                                    .startsWith("DOWN");

                            server.start();
                            await().atMost(Duration.ofSeconds(15))
                                    .until(() -> "UP"
                                            .equals(redisDetail(health.health(true))
                                                    .get("status")));
                        });
            } finally {
                privateRedis.destroy();
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> redisDetail(Health health) {
        return (Map<String, Object>) health.getDetails().get("redis");
    }
}
