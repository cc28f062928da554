package io.ax.test.pg;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.test.pg.PostgresPair.Replication;
import org.junit.jupiter.api.Test;

class PostgresPairTest {

    @Test
    void aCaughtUpFailoverKeepsEveryCommitOnANewTimelineOfTheSameSystem() {
        try (PostgresPair pair = PostgresPair.start(Replication.ASYNCHRONOUS)) {
            System.out.println("PostgresPair started in " + pair.startTime().toMillis() + " ms");
            int first = pair.primaryPort();
            pair.sql(first, "CREATE TABLE t (x int); INSERT INTO t VALUES (1)");
            String system = pair.systemIdentifier(first);
            pair.awaitStandbyCaughtUp();
            assertThat(pair.standbyLagBytes()).isZero();

            pair.failover();

            assertThat(pair.primaryPort()).isEqualTo(pair.standbyPort());
            assertThat(pair.sql(pair.primaryPort(), "SELECT count(*) FROM t")).isEqualTo("1");
            assertThat(pair.timeline(pair.primaryPort())).isEqualTo(2);
            assertThat(pair.systemIdentifier(pair.primaryPort())).isEqualTo(system);
        }
    }

    @Test
    void aDetachedStandbyLosesTheLastCommitsAndTheOldPrimaryComesBackWithThem() {
        try (PostgresPair pair = PostgresPair.start(Replication.SYNCHRONOUS)) {
            System.out.println("PostgresPair started in " + pair.startTime().toMillis() + " ms");
            int first = pair.primaryPort();
            pair.sql(first, "CREATE TABLE t (x int); INSERT INTO t VALUES (1)");
            pair.detachStandby();
            pair.sql(first, "INSERT INTO t VALUES (2)");
            assertThat(pair.standbyLagBytes()).isPositive();

            pair.failover();
            pair.sql(pair.primaryPort(), "INSERT INTO t VALUES (3)");
            assertThat(pair.sql(pair.primaryPort(), "SELECT string_agg(x::text, ',' ORDER BY x) FROM t"))
                    .isEqualTo("1,3");

            pair.startOldPrimary();
            assertThat(pair.sql(first, "SELECT pg_is_in_recovery()")).isEqualTo("f");
            assertThat(pair.sql(first, "SELECT string_agg(x::text, ',' ORDER BY x) FROM t"))
                    .isEqualTo("1,2");
            assertThat(pair.timeline(first)).isEqualTo(1);
        }
    }
}
