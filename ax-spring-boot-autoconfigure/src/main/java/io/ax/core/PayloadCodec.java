package io.ax.core;

/**
 * Turns payload objects into bytes and back. Strings (UTF-8) and byte arrays never go through it. A Spring application
 * gets one backed by its JSON mapper; without one, only strings and byte arrays are accepted. Implementations must be
 * thread-safe: every caller of {@link AxScheduler} and every handler uses the same one.
 */
public interface PayloadCodec {

    /**
     * Writes a payload. A {@link RuntimeException} it throws, or a null it returns, refuses the request with an {@link
     * InvalidScheduleException} that names the payload.
     *
     * @param value the payload object; not null, neither a String nor a byte[]
     * @return the bytes to store
     */
    byte[] encode(Object value);

    /**
     * Reads a payload, for {@link AxContext#payload(Class)}. What it throws reaches the handler.
     *
     * @param <T> the payload's type
     * @param bytes the stored payload, as {@link #encode} wrote it
     * @param type the class to read it as
     * @return the object {@code bytes} hold
     */
    <T> T decode(byte[] bytes, Class<T> type);

    /**
     * The codec used when none is configured: it maps nothing but strings and byte arrays. Its {@code encode} throws
     * {@link InvalidScheduleException}, its {@code decode} {@link AxException}.
     *
     * @return the codec that maps no object
     */
    static PayloadCodec none() {
        return NoPayloadCodec.INSTANCE;
    }
}
