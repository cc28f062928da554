package io.ax.core;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Hides the values of task parameters that may hold credentials wherever parameters leave the task (dead letters,
 * descriptions): every HTTP header ({@code header.*}, {@code header[...]}) and every parameter whose name contains, in
 * any case, {@code passw}, {@code secret}, {@code token}, {@code credential}, {@code key}, {@code auth}, {@code
 * cookie}, {@code session} or {@code signature}. A harmless parameter whose name contains one of these, such as {@code
 * author}, is hidden too. Stateless and thread-safe.
 */
public final class SecretParams {

    /** What a hidden value shows instead. */
    public static final String HIDDEN = "******";

    private static final Pattern SECRET_NAME =
            Pattern.compile(".*(passw|secret|token|credential|key|auth|cookie|session|signature).*");

    private SecretParams() {}

    /**
     * Tells whether the value of a parameter is hidden.
     *
     * @param name the parameter's name; not null
     * @return true if its value is shown as {@link #HIDDEN}
     */
    public static boolean isSecret(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.startsWith("header.")
                || lower.startsWith("header[")
                || SECRET_NAME.matcher(lower).matches();
    }

    /**
     * Copies parameters with the values of secret ones hidden.
     *
     * @param params the parameters by name; not null
     * @return a new map in the same order, with the values of secret parameters replaced by {@link #HIDDEN}
     */
    public static Map<String, String> redact(Map<String, String> params) {
        Map<String, String> out = new LinkedHashMap<>();
        params.forEach((name, value) -> out.put(name, isSecret(name) ? HIDDEN : value));
        return out;
    }
}
