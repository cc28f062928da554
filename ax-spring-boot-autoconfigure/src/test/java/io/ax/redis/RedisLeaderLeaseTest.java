package io.ax.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.cluster.FencedOutException;
import io.ax.core.cluster.LeaderLease;
import io.ax.core.cluster.Lease;
import io.ax.core.store.NewFire;
import io.ax.jdbc.JdbcInstanceStore;
import io.ax.jdbc.JdbcLeaderLease;
import io.ax.test.cluster.LeaderLeaseContract;
import io.ax.test.jdbc.TestDatabase;
import io.ax.test.redis.RedisServerProcess;
import io.ax.test.redis.TestRedis;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The leader lease on the machine's Redis passes the lease contract, and records each epoch in the database's
 * leader row (H2, tables {@code axred_}), where a deposed leader's write is refused.
 */
class RedisLeaderLeaseTest extends LeaderLeaseContract {

    private static final String TABLES = "axred_";

    private LettuceConnectionFactory factory;
    private String prefix;
    private RedisLink link;

    @BeforeAll
    static void tables() {
        TestDatabase.H2.migrate(TABLES);
    }

    @Override
    protected LeaderLease newLease() {
        TestDatabase.H2.truncate(TABLES);
        factory = TestRedis.shared();
        prefix = TestRedis.randomPrefix("redis");
        link = new RedisLink(factory, prefix, Duration.ofSeconds(1), InstantSource.system());
        return new RedisLeaderLease(link, databaseLease());
    }

    private static JdbcLeaderLease databaseLease() {
        return new JdbcLeaderLease(TestDatabase.H2.dataSource(), TABLES);
    }

    @AfterEach
    void cleanUp() {
        link.close();
        TestRedis.deleteKeys(factory, prefix);
        factory.destroy();
    }

    @Test
    void eachTakeoverIsRecordedInTheDatabaseBeforeItIsUsed() {
        Lease a = lease.acquire("a", SHORT).orElseThrow();
        assertThat(databaseLease().current().epoch()).isEqualTo(a.epoch());
        waitOut(a);
        Lease b = lease.acquire("b", LONG).orElseThrow();
        assertThat(databaseLease().current())
                .satisfies(row -> assertThat(row.epoch()).isEqualTo(b.epoch()))
                .satisfies(row -> assertThat(row.holder()).isEqualTo("b"));
    }

    @Test
    void aHolderWhoseEpochTheDatabasePassedTakesANewOneInsteadOfExtendingIt() {
        Lease stale = lease.acquire("a", LONG).orElseThrow();
        databaseLease().advance("elsewhere", stale.epoch() + 3);
        assertThat(lease.acquire("b", LONG)).as("still held by a").isEmpty();

        Lease fresh = lease.acquire("a", LONG).orElseThrow();

        assertThat(fresh.epoch()).isEqualTo(stale.epoch() + 4);
        assertThat(databaseLease().current().epoch()).isEqualTo(fresh.epoch());
        assertThat(lease.renew(stale, LONG)).isEmpty();
    }

    @Test
    void aDeposedLeadersLateWriteIsRefusedByTheDatabase() {
        JdbcInstanceStore store = new JdbcInstanceStore(TestDatabase.H2.dataSource(), TABLES);
        Lease old = lease.acquire("old-leader", SHORT).orElseThrow();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        TaskInstance instance = new TaskInstance(
                UUID.randomUUID().toString(), "job", now, InstanceState.SCHEDULED, 0, "old-leader", now);
        store.schedule(List.of(new NewFire(instance, "test")));
        waitOut(old);
        Lease current = lease.acquire("new-leader", LONG).orElseThrow();
        assertThat(current.epoch()).isGreaterThan(old.epoch());

        Transition late = new Transition(
                        instance.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED, 1, "old-leader", now, "late")
                .assignedTo("old-leader", old.epoch());
        assertThatThrownBy(() -> store.transitionAll(List.of(late)))
                .isInstanceOf(FencedOutException.class)
                .hasMessageContaining("epoch " + old.epoch());
        Transition onTime = new Transition(
                        instance.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED, 1, "new-leader", now, "ok")
                .assignedTo("new-leader", current.epoch());
        store.transitionAll(List.of(onTime));
        assertThat(store.find(instance.id()).orElseThrow().state()).isEqualTo(InstanceState.DISPATCHED);
    }

    @Test
    void aRedisThatLostItsDataStillGrantsEpochsAboveTheDatabases() {
        try (RedisServerProcess server = RedisServerProcess.startNew()) {
            LettuceConnectionFactory privateRedis = TestRedis.factory("127.0.0.1", server.port());
            RedisLink privateLink = new RedisLink(privateRedis, prefix, Duration.ofMillis(200), InstantSource.system());
            try {
                RedisLeaderLease onPrivate = new RedisLeaderLease(privateLink, databaseLease());
                Lease before = onPrivate.acquire("a", LONG).orElseThrow();
                onPrivate.release(before);
                Lease again = onPrivate.acquire("b", LONG).orElseThrow();

                server.kill();
                server.start(); // without persistence: the hash and its epoch are gone
                await().atMost(Duration.ofSeconds(15))
                        .ignoreExceptions()
                        .until(() -> onPrivate.current().epoch() == 0);

                Lease after = onPrivate.acquire("c", LONG).orElseThrow();
                assertThat(after.epoch()).isGreaterThan(again.epoch());
                assertThat(databaseLease().current().epoch()).isEqualTo(after.epoch());
            } finally {
                privateLink.close();
                privateRedis.destroy();
            }
        }
    }
}
