package io.ax.autoconfigure;

import io.ax.core.PayloadCodec;
import java.util.Objects;
import tools.jackson.databind.ObjectMapper;

/** Payload objects as JSON, written and read by the application's own mapper (its modules and settings apply). */
final class JacksonPayloadCodec implements PayloadCodec {

    private final ObjectMapper mapper;

    JacksonPayloadCodec(ObjectMapper mapper) {
        this.mapper = Objects.requireNonNull(mapper, "mapper");
    }

    @Override
    public byte[] encode(Object value) {
        return mapper.writeValueAsBytes(value);
    }

    @Override
    public <T> T decode(byte[] bytes, Class<T> type) {
        return mapper.readValue(bytes, type);
    }
}
