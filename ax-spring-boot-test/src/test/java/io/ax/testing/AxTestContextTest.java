package io.ax.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.core.AxContext;
import io.ax.core.InvalidScheduleException;
import io.ax.core.PayloadCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A hand-made context answers as the engine's would. */
class AxTestContextTest {

    record Order(long id) {}

    /** A codec of the test's own: the order's id as text. */
    private static final PayloadCodec ORDERS = new PayloadCodec() {
        @Override
        public byte[] encode(Object value) {
            return Long.toString(((Order) value).id()).getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public <T> T decode(byte[] bytes, Class<T> type) {
            return type.cast(new Order(Long.parseLong(new String(bytes, StandardCharsets.UTF_8))));
        }
    };

    @Test
    void itCarriesWhatItWasGiven() {
        Instant at = Instant.parse("2026-12-01T02:00:00Z");
        AxContext context = AxTestContext.forTask("export")
                .instanceId("i-1")
                .attempt(2)
                .scheduledTime(at)
                .nodeId("n1")
                .epoch(7)
                .param("day", "monday")
                .key("k")
                .runId("run-1")
                .upstreamResult("extract", "rows.csv")
                .build();

        assertThat(context.taskName()).isEqualTo("export");
        assertThat(context.instanceId()).isEqualTo("i-1");
        assertThat(context.attempt()).isEqualTo(2);
        assertThat(context.scheduledTime()).isEqualTo(at);
        assertThat(context.nodeId()).isEqualTo("n1");
        assertThat(context.params()).isEqualTo(Map.of("day", "monday"));
        assertThat(context.key()).isEqualTo("k");
        assertThat(context.runId()).isEqualTo("run-1");
        assertThat(context.upstreamResults()).isEqualTo(Map.of("extract", "rows.csv"));
        assertThat(context.fencingToken()).isEqualTo((7L << 20) | 2);
        assertThat(context.hasPayload()).isFalse();
        assertThat(context.payload(Order.class)).isNull();
    }

    @Test
    void aPayloadIsReadBackAsTextBytesOrThroughTheCodec() {
        assertThat(AxTestContext.forTask("t").payload("hello").build().payload(String.class))
                .isEqualTo("hello");
        assertThat(AxTestContext.forTask("t").payload(new byte[] {1, 2}).build().payloadBytes())
                .containsExactly(1, 2);

        AxContext context =
                AxTestContext.forTask("t").payload(new Order(42), ORDERS).build();

        assertThat(context.payloadString()).isEqualTo("42");
        assertThat(context.payload(Order.class)).isEqualTo(new Order(42));
    }

    @Test
    void anObjectPayloadNeedsACodecAsTheEngineWould() {
        assertThatThrownBy(() -> AxTestContext.forTask("t").payload(new Order(1)))
                .isInstanceOf(InvalidScheduleException.class)
                .hasMessageContaining("No PayloadCodec is configured");
    }

    @Test
    void anIdempotencyKeyIsClaimedOnceAndCheckedAsTheEngineChecksIt() {
        AxContext context = AxTestContext.forTask("mail").build();

        assertThat(context.idempotent("mail:42", Duration.ofDays(1))).isTrue();
        assertThat(context.idempotent("mail:42", Duration.ofDays(1))).isFalse();
        assertThat(context.idempotent("mail:43", Duration.ofDays(1))).isTrue();
        assertThatThrownBy(() -> context.idempotent(" ", Duration.ofDays(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> context.idempotent("k", Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void badValuesAreRefusedWithTheirName() {
        assertThatThrownBy(() -> AxTestContext.forTask(" ")).hasMessageContaining("taskName");
        assertThatThrownBy(() -> AxTestContext.forTask("t").attempt(0)).hasMessageContaining("attempt must be 1");
        assertThatThrownBy(() -> AxTestContext.forTask("t").epoch(-1)).hasMessageContaining("epoch");
    }
}
