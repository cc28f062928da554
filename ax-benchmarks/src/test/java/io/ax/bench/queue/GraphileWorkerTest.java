package io.ax.bench.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.bench.Options;
import io.ax.bench.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;

class GraphileWorkerTest {

    @Test
    void theScenariosDatabaseIsGivenToNodeJsAsAConnectionString() {
        assertThat(GraphileWorker.connectionString(Options.parse(List.of())))
                .isEqualTo("postgres://postgres@127.0.0.1:5432/test");
        Options other = Options.parse(List.of(
                "--jdbc-url=jdbc:postgresql://db.internal/jobs?sslmode=disable",
                "--jdbc-user=bench",
                "--jdbc-password=p@ss:w/rd"));
        // the password's reserved characters are escaped, the JDBC parameters left out
        assertThat(GraphileWorker.connectionString(other))
                .isEqualTo("postgres://bench:p%40ss%3Aw%2Frd@db.internal/jobs");
    }

    @Test
    void aDatabaseOtherThanPostgreSqlIsRefusedSayingWhatIsNeeded() {
        Options mysql = Options.parse(List.of("--jdbc-url=jdbc:mysql://127.0.0.1:3306/test"));
        assertThatThrownBy(() -> GraphileWorker.connectionString(mysql))
                .isInstanceOf(Scenario.Refused.class)
                .hasMessageContaining("needs a PostgreSQL URL");
    }

    @Test
    void theMedianOfTheRoundsIsTheMiddleOneOrTheMeanOfTheTwoMiddleOnes() {
        assertThat(QueueTable.median(List.of(3.0, 1.0, 2.0))).isEqualTo(2.0);
        assertThat(QueueTable.median(List.of(4.0, 1.0, 2.0, 3.0))).isEqualTo(2.5);
        assertThat(QueueTable.median(List.of())).isNaN();
    }
}
