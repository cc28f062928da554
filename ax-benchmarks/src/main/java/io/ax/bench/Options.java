package io.ax.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Command-line options of a run: {@code --quick} for a run under two minutes, and {@code --key=value} settings
 * (e.g. {@code --jdbc-url=...}, {@code --timers=100000}).
 */
public record Options(boolean quick, Map<String, String> settings) {

    public static Options parse(List<String> args) {
        boolean quick = false;
        Map<String, String> settings = new HashMap<>();
        for (String arg : args) {
            if (arg.equals("--quick")) {
                quick = true;
            } else if (arg.startsWith("--") && arg.contains("=")) {
                int eq = arg.indexOf('=');
                settings.put(arg.substring(2, eq), arg.substring(eq + 1));
            } else {
                throw new IllegalArgumentException("unknown option '" + arg + "'");
            }
        }
        return new Options(quick, Map.copyOf(settings));
    }

    public String get(String key, String fallback) {
        return settings.getOrDefault(key, fallback);
    }

    public int getInt(String key, int full, int quickValue) {
        String v = settings.get(key);
        return v != null ? Integer.parseInt(v) : quick ? quickValue : full;
    }

    /** The PostgreSQL the database scenarios share; default the local test database. */
    public String jdbcUrl() {
        return get("jdbc-url", "jdbc:postgresql://127.0.0.1:5432/test");
    }

    public String jdbcUser() {
        return get("jdbc-user", "postgres");
    }

    public String jdbcPassword() {
        return get("jdbc-password", "");
    }
}
