package io.ax.core;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Hides the values of task parameters that may hold credentials wherever parameters leave the task (dead letters,
 * descriptions): every HTTP header ({@code header.*}) and every parameter whose name mentions a password, secret,
 * token, credential, key, authorization or cookie. Stateless and thread-safe.
 */
public final class SecretParams {

    /** What a hidden value shows instead. */
    public static final String HIDDEN = "******";

    private static final Pattern SECRET_NAME =
            Pattern.compile(".*(passw|secret|token|credential|key|auth|cookie|session|signature).*");

    private SecretParams() {}

    /** Whether the value of the parameter {@code name} is hidden. */
    public static boolean isSecret(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.startsWith("header.")
                || lower.startsWith("header[")
                || SECRET_NAME.matcher(lower).matches();
    }

    /** A copy of {@code params} with the values of secret parameters replaced by {@link #HIDDEN}. */
    public static Map<String, String> redact(Map<String, String> params) {
        Map<String, String> out = new LinkedHashMap<>();
        params.forEach((name, value) -> out.put(name, isSecret(name) ? HIDDEN : value));
        return out;
    }
}
