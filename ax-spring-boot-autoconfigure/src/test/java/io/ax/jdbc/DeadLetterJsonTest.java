package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.core.AttemptError;
import io.ax.core.InstanceState;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeadLetterJsonTest {

    @Test
    void readsTheColumnsRowsWrittenBeforeJacksonHave() {
        String params = "{\"region\":\"eu\",\"note\":\"a \\\"quoted\\\" line\\nand \\u00e9\"}";
        String attempts =
                "[{\"attempt\":1,\"outcome\":\"FAILED\",\"error\":\"boom\",\"at\":\"2026-11-30T10:15:30.123456Z\"},"
                        + "{\"attempt\":2,\"outcome\":\"TIMEOUT\",\"error\":\"timed out\",\"at\":\"2026-11-30T10:16:00Z\"}]";

        assertThat(DeadLetterJson.readParams(params))
                .containsExactly(Map.entry("region", "eu"), Map.entry("note", "a \"quoted\" line\nand \u00e9"));
        assertThat(DeadLetterJson.readAttempts(attempts))
                .containsExactly(
                        new AttemptError(1, InstanceState.FAILED, "boom", Instant.parse("2026-11-30T10:15:30.123456Z")),
                        new AttemptError(2, InstanceState.TIMEOUT, "timed out", Instant.parse("2026-11-30T10:16:00Z")));
    }

    @Test
    void roundTripsAnyTextInOrder() {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("z", "</script><script>alert(1)</script>");
        params.put("a", "tab\there, nul \u0000, emoji \uD83D\uDE00");
        List<AttemptError> attempts = List.of(new AttemptError(
                3, InstanceState.FAILED, "java.lang.IllegalStateException: \"x\"\n\tat y", Instant.EPOCH));

        assertThat(DeadLetterJson.readParams(DeadLetterJson.writeParams(params)))
                .containsExactlyEntriesOf(params);
        assertThat(DeadLetterJson.readAttempts(DeadLetterJson.writeAttempts(attempts)))
                .isEqualTo(attempts);
        assertThat(DeadLetterJson.writeAttempts(attempts))
                .as("the shape rows already have")
                .startsWith("[{\"attempt\":3,\"outcome\":\"FAILED\",\"error\":")
                .endsWith("\"at\":\"1970-01-01T00:00:00Z\"}]");
    }

    @Test
    void aCorruptColumnSaysWhichColumnItIs() {
        assertThatThrownBy(() -> DeadLetterJson.readAttempts("[{\"attempt\":"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("dead letter's JSON column");
    }
}
