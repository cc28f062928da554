package io.ax.autoconfigure.adopt.quartz;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The bytes a {@code JobDataMap} is kept as between runs: its entries in key order, each value with its type. Only
 * the values a properties-based Quartz job store keeps are allowed, strings, the primitive wrappers and null, so that
 * a value reads back as the same type on any node and in any version, without Java serialization. Stateless.
 */
final class JobDataCodec {

    /** The first byte of every value: its format, so that a later one can tell old values apart. */
    private static final int FORMAT = 1;

    private enum Type {
        NULL,
        STRING,
        INTEGER,
        LONG,
        DOUBLE,
        FLOAT,
        BOOLEAN,
        CHARACTER,
        SHORT,
        BYTE
    }

    private JobDataCodec() {}

    /** What a value may be: described for a message that names a value of another type. */
    static final String ALLOWED = "String, Integer, Long, Double, Float, Boolean, Character, Short, Byte or null";

    /**
     * Why a value cannot be kept, or null when it can.
     *
     * @param value the value
     * @return null, or a reason naming its type
     */
    static String refusal(Object value) {
        return value == null || typeOf(value) != null
                ? null
                : "a " + value.getClass().getName() + " cannot be kept between runs; a value kept is a " + ALLOWED;
    }

    /**
     * Encodes entries.
     *
     * @throws IllegalArgumentException naming the first key whose value is of a type not kept
     */
    static byte[] encode(Map<String, ?> entries) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            Map<String, ?> sorted = new TreeMap<>(entries);
            out.writeInt(sorted.size());
            for (Map.Entry<String, ?> e : sorted.entrySet()) {
                writeText(out, e.getKey());
                write(out, e.getKey(), e.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        return bytes.toByteArray();
    }

    /**
     * Decodes what {@link #encode} wrote.
     *
     * @throws IllegalArgumentException when the bytes are not such a value
     */
    static Map<String, Object> decode(byte[] value) {
        Map<String, Object> entries = new LinkedHashMap<>();
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
            int format = in.readUnsignedByte();
            if (format != FORMAT) {
                throw new IllegalArgumentException("a job data value of format " + format + ", this version reads "
                        + FORMAT + " (written by a newer AX?)");
            }
            int size = in.readInt();
            for (int i = 0; i < size; i++) {
                String key = readText(in);
                entries.put(key, read(in));
            }
            if (in.available() > 0) {
                throw new IllegalArgumentException("a job data value has " + in.available() + " bytes too many");
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("a job data value cannot be read: " + e, e);
        }
        return entries;
    }

    private static Type typeOf(Object value) {
        if (value == null) {
            return Type.NULL;
        }
        if (value instanceof String) {
            return Type.STRING;
        }
        if (value instanceof Integer) {
            return Type.INTEGER;
        }
        if (value instanceof Long) {
            return Type.LONG;
        }
        if (value instanceof Double) {
            return Type.DOUBLE;
        }
        if (value instanceof Float) {
            return Type.FLOAT;
        }
        if (value instanceof Boolean) {
            return Type.BOOLEAN;
        }
        if (value instanceof Character) {
            return Type.CHARACTER;
        }
        if (value instanceof Short) {
            return Type.SHORT;
        }
        if (value instanceof Byte) {
            return Type.BYTE;
        }
        return null;
    }

    private static void write(DataOutputStream out, String key, Object value) throws IOException {
        Type type = typeOf(value);
        if (type == null) {
            throw new IllegalArgumentException("JobDataMap entry '" + key + "': " + refusal(value));
        }
        out.writeByte(type.ordinal());
        switch (type) {
            case NULL -> {}
            case STRING -> writeText(out, (String) value);
            case INTEGER -> out.writeInt((Integer) value);
            case LONG -> out.writeLong((Long) value);
            case DOUBLE -> out.writeDouble((Double) value);
            case FLOAT -> out.writeFloat((Float) value);
            case BOOLEAN -> out.writeBoolean((Boolean) value);
            case CHARACTER -> out.writeChar((Character) value);
            case SHORT -> out.writeShort((Short) value);
            case BYTE -> out.writeByte((Byte) value);
        }
    }

    private static Object read(DataInputStream in) throws IOException {
        int ordinal = in.readUnsignedByte();
        if (ordinal >= Type.values().length) {
            throw new IllegalArgumentException("a job data value has an unknown type " + ordinal);
        }
        return switch (Type.values()[ordinal]) {
            case NULL -> null;
            case STRING -> readText(in);
            case INTEGER -> in.readInt();
            case LONG -> in.readLong();
            case DOUBLE -> in.readDouble();
            case FLOAT -> in.readFloat();
            case BOOLEAN -> in.readBoolean();
            case CHARACTER -> in.readChar();
            case SHORT -> in.readShort();
            case BYTE -> in.readByte();
        };
    }

    /** Text of any length (writeUTF stops at 64 KiB): its UTF-8 bytes after their count. */
    private static void writeText(DataOutputStream out, String text) throws IOException {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    private static String readText(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > in.available()) {
            throw new IllegalArgumentException("a job data value holds a text of " + length + " bytes, past its end");
        }
        return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }
}
