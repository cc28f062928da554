package io.ax.jdbc;

import io.ax.core.AttemptError;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON columns of a dead letter, with Jackson: its params (an object of strings) and the errors of its attempts
 * (an array of {@code {"attempt", "outcome", "error", "at"}}, the instant in ISO-8601). The shape is the one rows
 * written before this class have, so old rows read as new ones.
 */
final class DeadLetterJson {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final TypeReference<LinkedHashMap<String, String>> PARAMS = new TypeReference<>() {};
    private static final TypeReference<List<AttemptError>> ATTEMPTS = new TypeReference<>() {};

    private DeadLetterJson() {}

    static String writeParams(Map<String, String> params) {
        return write(params);
    }

    static String writeAttempts(List<AttemptError> attempts) {
        return write(attempts);
    }

    static Map<String, String> readParams(String json) {
        return read(json, PARAMS);
    }

    static List<AttemptError> readAttempts(String json) {
        return read(json, ATTEMPTS);
    }

    private static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JacksonException e) {
            throw new IllegalStateException("cannot write a dead letter's JSON column", e);
        }
    }

    private static <T> T read(String json, TypeReference<T> type) {
        try {
            return JSON.readValue(json, type);
        } catch (JacksonException e) {
            throw new IllegalStateException("a dead letter's JSON column cannot be read: " + e.getOriginalMessage(), e);
        }
    }
}
