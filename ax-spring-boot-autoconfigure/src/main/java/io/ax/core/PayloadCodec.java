package io.ax.core;

/**
 * Turns payload objects into bytes and back. Strings (UTF-8) and byte arrays never go through it. A Spring
 * application gets one backed by its JSON mapper; without one, only strings and byte arrays are accepted.
 */
public interface PayloadCodec {

    /** The bytes of {@code value}. */
    byte[] encode(Object value);

    /** The object of type {@code type} that {@code bytes} hold. */
    <T> T decode(byte[] bytes, Class<T> type);

    /** The codec used when none is configured: it maps nothing but strings and byte arrays. */
    static PayloadCodec none() {
        return NoPayloadCodec.INSTANCE;
    }
}
