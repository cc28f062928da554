package io.ax.jdbc;

import io.ax.core.AttemptError;
import io.ax.core.InstanceState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes and reads the two small JSON shapes of a dead letter: a string map (params) and a list of attempt errors.
 * Kept here so the JDBC store needs no JSON library of the application.
 */
final class JsonCodec {

    private JsonCodec() {}

    static String writeParams(Map<String, String> params) {
        StringBuilder out = new StringBuilder("{");
        params.forEach((k, v) -> {
            if (out.length() > 1) {
                out.append(',');
            }
            string(out, k).append(':');
            string(out, v);
        });
        return out.append('}').toString();
    }

    static String writeAttempts(List<AttemptError> attempts) {
        StringBuilder out = new StringBuilder("[");
        for (AttemptError a : attempts) {
            if (out.length() > 1) {
                out.append(',');
            }
            out.append("{\"attempt\":").append(a.attempt()).append(",\"outcome\":");
            string(out, a.outcome().name()).append(",\"error\":");
            string(out, a.error()).append(",\"at\":");
            string(out, a.at().toString()).append('}');
        }
        return out.append(']').toString();
    }

    static Map<String, String> readParams(String json) {
        Map<String, String> params = new LinkedHashMap<>();
        Object parsed = new Reader(json).value();
        if (parsed instanceof Map<?, ?> map) {
            map.forEach((k, v) -> params.put((String) k, (String) v));
        }
        return params;
    }

    static List<AttemptError> readAttempts(String json) {
        List<AttemptError> attempts = new ArrayList<>();
        if (new Reader(json).value() instanceof List<?> list) {
            for (Object o : list) {
                Map<?, ?> m = (Map<?, ?>) o;
                attempts.add(new AttemptError(
                        ((Number) m.get("attempt")).intValue(),
                        InstanceState.valueOf((String) m.get("outcome")),
                        (String) m.get("error"),
                        Instant.parse((String) m.get("at"))));
            }
        }
        return attempts;
    }

    private static StringBuilder string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"');
    }

    /** A reader of the JSON this class writes: objects, arrays, strings and integers. */
    private static final class Reader {
        private final String s;
        private int i;

        Reader(String s) {
            this.s = s;
        }

        Object value() {
            skipSpace();
            char c = s.charAt(i);
            if (c == '{') {
                i++;
                Map<String, Object> map = new LinkedHashMap<>();
                skipSpace();
                if (s.charAt(i) == '}') {
                    i++;
                    return map;
                }
                while (true) {
                    skipSpace();
                    String key = string();
                    skipSpace();
                    expect(':');
                    map.put(key, value());
                    skipSpace();
                    if (s.charAt(i++) == '}') {
                        return map;
                    }
                }
            }
            if (c == '[') {
                i++;
                List<Object> list = new ArrayList<>();
                skipSpace();
                if (s.charAt(i) == ']') {
                    i++;
                    return list;
                }
                while (true) {
                    list.add(value());
                    skipSpace();
                    if (s.charAt(i++) == ']') {
                        return list;
                    }
                }
            }
            if (c == '"') {
                return string();
            }
            int start = i;
            while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '-')) {
                i++;
            }
            return Long.parseLong(s.substring(start, i));
        }

        private String string() {
            expect('"');
            StringBuilder out = new StringBuilder();
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') {
                    return out.toString();
                }
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                char e = s.charAt(i++);
                switch (e) {
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'u' -> {
                        out.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                    }
                    default -> out.append(e);
                }
            }
        }

        private void expect(char c) {
            if (s.charAt(i++) != c) {
                throw new IllegalArgumentException("malformed JSON at " + (i - 1) + ": expected '" + c + "'");
            }
        }

        private void skipSpace() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }
    }
}
