package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.clock.AxClock;
import io.ax.core.clock.ClusterTime;
import io.ax.core.clock.TimeReference;
import io.ax.test.jdbc.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/** Each database's clock, read as the cluster's: on this machine it agrees with the local clock to within a second. */
class JdbcTimeReferenceTest {

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void theDatabaseClockGivesASmallOffsetWithItsUncertainty(TestDatabase database) {
        TimeReference reference =
                new JdbcTimeReference(new JdbcTemplate(database.dataSource()), Vendor.dialectOf(database.dataSource()));
        ClusterTime time = new ClusterTime(AxClock.system(), reference, Duration.ofSeconds(30));

        assertThat(time.measure()).isTrue();

        assertThat(time.status().source()).isEqualTo("database");
        assertThat(time.status().offset().abs()).isLessThan(Duration.ofSeconds(1));
        assertThat(time.status().uncertainty()).isLessThan(Duration.ofSeconds(1));
        assertThat(time.status().measuredAt()).isNotNull();
    }

    /**
     * H2 runs in this JVM, on this clock: the true offset is zero. A reading that counted its wait for a connection
     * (every one of the pool's busy) put the clock ahead by half the wait, and delayed tasks started that early; now
     * the wait does not count, and the clock is neither ahead nor behind by it.
     */
    @Test
    void aWaitForAConnectionNeitherPutsTheClockAheadNorBehind() {
        Duration wait = Duration.ofMillis(300);
        DataSource busyPool = new DelegatingDataSource(TestDatabase.H2.dataSource()) {
            @Override
            public Connection getConnection() throws SQLException {
                try { // every connection is busy for a while yet, as on a node whose every thread writes
                    new CountDownLatch(1).await(wait.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return super.getConnection();
            }
        };
        ClusterTime time = new ClusterTime(
                AxClock.system(),
                new JdbcTimeReference(new JdbcTemplate(busyPool), Vendor.dialectOf(TestDatabase.H2.dataSource())),
                Duration.ofSeconds(30));

        assertThat(time.measure()).isTrue();

        assertThat(time.status().offset()).isLessThanOrEqualTo(Duration.ZERO);
        assertThat(time.status().offset()).isGreaterThan(wait.dividedBy(3).negated());
        assertThat(time.status().uncertainty()).isLessThan(wait.dividedBy(3));
    }
}
