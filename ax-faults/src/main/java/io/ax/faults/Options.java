package io.ax.faults;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The command line: {@code --key=value} settings and {@code --flag} switches, each known by name, so that a typo
 * stops the run instead of being ignored. Durations are written {@code 500ms}, {@code 30s}, {@code 5m} or {@code 1h}.
 */
final class Options {

    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");

    private final Map<String, String> settings;

    private Options(Map<String, String> settings) {
        this.settings = settings;
    }

    /**
     * @param known the names a setting or switch may have
     * @throws IllegalArgumentException naming the first argument that is not one of them or is malformed
     */
    static Options parse(List<String> args, Set<String> known) {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String arg : args) {
            if (!arg.startsWith("--")) {
                throw new IllegalArgumentException("arguments look like --key=value or --flag, was '" + arg + "'");
            }
            int eq = arg.indexOf('=');
            String key = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
            if (!known.contains(key)) {
                throw new IllegalArgumentException("unknown option --" + key + " (known: --"
                        + String.join(", --", new java.util.TreeSet<>(known)) + ")");
            }
            settings.put(key, eq < 0 ? "true" : arg.substring(eq + 1));
        }
        return new Options(settings);
    }

    boolean has(String key) {
        return settings.containsKey(key);
    }

    boolean flag(String key) {
        String v = settings.get(key);
        if (v == null) {
            return false;
        }
        if (!v.equals("true") && !v.equals("false")) {
            throw new IllegalArgumentException(
                    "--" + key + " is a switch (--" + key + " or --" + key + "=false), was '" + v + "'");
        }
        return v.equals("true");
    }

    String get(String key, String fallback) {
        return settings.getOrDefault(key, fallback);
    }

    int getInt(String key, int fallback) {
        String v = settings.get(key);
        try {
            return v == null ? fallback : Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + key + " must be a whole number, was '" + v + "'");
        }
    }

    long getLong(String key, long fallback) {
        String v = settings.get(key);
        try {
            return v == null ? fallback : Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + key + " must be a whole number, was '" + v + "'");
        }
    }

    Duration getDuration(String key, String fallback) {
        return duration(get(key, fallback), key);
    }

    static Duration duration(String text, String option) {
        Matcher m = DURATION.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "--" + option + " must look like 500ms, 30s, 5m or 1h, was '" + text + "'");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }
}
