package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.clock.AxClock;
import io.ax.core.clock.ClusterTime;
import io.ax.core.clock.TimeReference;
import io.ax.test.jdbc.TestDatabase;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each database's clock, read as the cluster's: on this machine it agrees with the local clock to within a second. */
class JdbcTimeReferenceTest {

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void theDatabaseClockGivesASmallOffsetWithItsUncertainty(TestDatabase database) {
        TimeReference reference = new JdbcTimeReference(
                new org.springframework.jdbc.core.JdbcTemplate(database.dataSource()),
                Vendor.dialectOf(database.dataSource()));
        ClusterTime time = new ClusterTime(AxClock.system(), reference, Duration.ofSeconds(30));

        assertThat(time.measure()).isTrue();

        assertThat(time.status().source()).isEqualTo("database");
        assertThat(time.status().offset().abs()).isLessThan(Duration.ofSeconds(1));
        assertThat(time.status().uncertainty()).isLessThan(Duration.ofSeconds(1));
        assertThat(time.status().measuredAt()).isNotNull();
    }
}
