package io.ax.core.store;

import java.time.Instant;
import java.util.Optional;

/**
 * Small data that a task keeps from one run to the next, whichever node runs the next: one value per key (a job's
 * data, say), with a version that every write moves on by one. A write names the version its run read, and applies
 * only while that is still the stored one: a run that read an older value (a stale attempt of a node taken for dead,
 * a duplicate run, an overlapping run that wrote second) cannot overwrite a newer value. Each value remembers the
 * attempt that wrote it, for people and for a writer that lost to find out whether it lost to its own instance.
 *
 * <p>Keys are few (one per job that keeps data) and values small; nothing deletes them. Implementations are
 * thread-safe; every store that offers it passes the same contract test.
 */
public interface TaskDataStore {

    /** The longest key, in characters. */
    int MAX_KEY_LENGTH = 200;

    /** The largest value, in bytes (1 MiB). */
    int MAX_VALUE_SIZE = 1 << 20;

    /**
     * The value stored under a key.
     *
     * @param key the value's key; 1 to {@value #MAX_KEY_LENGTH} characters
     * @return the value with its version, or empty when none was ever written
     * @throws IllegalArgumentException when the key breaks its rule
     * @throws io.ax.core.AxException when the store cannot be read
     */
    Optional<TaskData> read(String key);

    /**
     * Writes a value if the stored version is still {@code expectedVersion}: the first write of a key expects 0 and
     * writes version 1, each later one writes the version after the one it expects. Atomic: of several writers that
     * expect the same version, one wins.
     *
     * @param key the value's key; 1 to {@value #MAX_KEY_LENGTH} characters
     * @param expectedVersion the version the writer read; 0 when it read none
     * @param value the new value; at most {@value #MAX_VALUE_SIZE} bytes; copied
     * @param writer the attempt that writes it
     * @return true when written (the stored version is now {@code expectedVersion + 1}); false when the stored version
     *     was another (nothing was written)
     * @throws IllegalArgumentException when the key, the version or the value breaks its rule
     * @throws io.ax.core.AxException when the store cannot be written (then it may or may not have been written, as
     *     a read tells)
     */
    boolean write(String key, long expectedVersion, byte[] value, Writer writer);

    /**
     * The attempt that writes a value.
     *
     * @param instanceId the id of its instance; 1 to 36 characters
     * @param fencingToken its fencing token ({@link io.ax.core.AxContext#fencingToken()})
     * @param at when it writes
     */
    record Writer(String instanceId, long fencingToken, Instant at) {

        /**
         * Checks the components.
         *
         * @throws NullPointerException when {@code instanceId} or {@code at} is null
         * @throws IllegalArgumentException when {@code instanceId} is empty or longer than 36 characters
         */
        public Writer {
            java.util.Objects.requireNonNull(instanceId, "instanceId");
            java.util.Objects.requireNonNull(at, "at");
            if (instanceId.isEmpty() || instanceId.length() > 36) {
                throw new IllegalArgumentException("an instance id has 1 to 36 characters, had " + instanceId.length());
            }
        }
    }

    /**
     * A stored value.
     *
     * @param key its key
     * @param version its version: 1 for the first write, one more for each later one
     * @param value its bytes
     * @param writer the attempt that wrote it
     */
    record TaskData(String key, long version, byte[] value, Writer writer) {

        /**
         * Checks and copies the components.
         *
         * @throws NullPointerException when a component is null
         * @throws IllegalArgumentException when the version is below 1
         */
        public TaskData {
            java.util.Objects.requireNonNull(key, "key");
            value = java.util.Objects.requireNonNull(value, "value").clone();
            java.util.Objects.requireNonNull(writer, "writer");
            if (version < 1) {
                throw new IllegalArgumentException("a stored version is 1 or more, was " + version);
            }
        }

        /** {@return a copy of the value's bytes} */
        @Override
        public byte[] value() {
            return value.clone();
        }
    }

    /**
     * Checks a write's arguments as {@link #write} promises; for implementations.
     *
     * @throws NullPointerException when an argument is null
     * @throws IllegalArgumentException naming what is wrong
     */
    static void checkWrite(String key, long expectedVersion, byte[] value, Writer writer) {
        checkKey(key);
        java.util.Objects.requireNonNull(value, "value");
        java.util.Objects.requireNonNull(writer, "writer");
        if (expectedVersion < 0) {
            throw new IllegalArgumentException(
                    "an expected version is 0 (none stored) or more, was " + expectedVersion);
        }
        if (value.length > MAX_VALUE_SIZE) {
            throw new IllegalArgumentException("the value of '" + key + "' has " + value.length
                    + " bytes, more than the " + MAX_VALUE_SIZE + " a task may keep");
        }
    }

    /**
     * Checks a key as {@link #read} and {@link #write} promise; for implementations.
     *
     * @throws NullPointerException when the key is null
     * @throws IllegalArgumentException when it is empty or too long
     */
    static void checkKey(String key) {
        java.util.Objects.requireNonNull(key, "key");
        if (key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
            throw new IllegalArgumentException(
                    "a task data key has 1 to " + MAX_KEY_LENGTH + " characters, had " + key.length());
        }
    }
}
