package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.test.jdbc.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** LISTEN/NOTIFY carries a wake-up from one node to another; a lost one costs only a poll. */
class PostgresWakeUpsTest {

    @Test
    void aSignalSentByOneNodeReachesTheListeners() {
        PostgresWakeUps sender = new PostgresWakeUps(TestDatabase.POSTGRESQL.dataSource(), "axwake_");
        PostgresWakeUps receiver = new PostgresWakeUps(TestDatabase.POSTGRESQL.dataSource(), "axwake_");
        List<String> heard = new CopyOnWriteArrayList<>();
        try {
            receiver.listen(heard::add);
            // the listener may not be subscribed yet when the first signal goes: send until one arrives
            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> {
                        sender.signal(List.of("n2", "*leader"));
                        return heard.contains("n2") && heard.contains("*leader");
                    });
        } finally {
            receiver.close();
            sender.close();
        }
    }

    @Test
    void signalsOfAnotherPrefixAreNotHeard() {
        PostgresWakeUps other = new PostgresWakeUps(TestDatabase.POSTGRESQL.dataSource(), "axother_");
        PostgresWakeUps mine = new PostgresWakeUps(TestDatabase.POSTGRESQL.dataSource(), "axwake_");
        List<String> heard = new CopyOnWriteArrayList<>();
        try {
            mine.listen(heard::add);
            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> {
                        mine.signal(List.of("ready"));
                        return heard.contains("ready");
                    });
            other.signal(List.of("n9"));
            mine.signal(List.of("marker"));
            await().atMost(Duration.ofSeconds(10)).until(() -> heard.contains("marker"));
            assertThat(heard).doesNotContain("n9");
        } finally {
            mine.close();
            other.close();
        }
    }
}
