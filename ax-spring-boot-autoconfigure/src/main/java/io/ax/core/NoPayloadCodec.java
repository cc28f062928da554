package io.ax.core;

/** Refuses every object: without a configured codec, payloads are strings or byte arrays. */
enum NoPayloadCodec implements PayloadCodec {
    INSTANCE;

    @Override
    public byte[] encode(Object value) {
        throw new InvalidScheduleException("No PayloadCodec is configured, so a payload must be a String or a byte[],"
                + " not a " + value.getClass().getName());
    }

    @Override
    public <T> T decode(byte[] bytes, Class<T> type) {
        throw new AxException("No PayloadCodec is configured to read a payload as " + type.getName()
                + "; read it with payloadString() or payloadBytes()");
    }
}
