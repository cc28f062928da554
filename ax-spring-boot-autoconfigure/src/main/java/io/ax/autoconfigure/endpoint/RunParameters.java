package io.ax.autoconfigure.endpoint;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code params} of a trigger's JSON body. Actuator reads a body as names to strings, so the parameters come as
 * one string in the form encoding of a query: {@code "region=us&format=csv"}, names and values percent-encoded.
 */
final class RunParameters {

    static final String MALFORMED =
            "params must be name=value pairs joined by & and percent-encoded, e.g. \"region=us&format=csv\"";

    private RunParameters() {}

    /** The parameters; empty when the text is not {@code name=value} pairs. */
    static Optional<Map<String, String>> read(String text) {
        Map<String, String> params = new LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            return Optional.of(params);
        }
        for (String pair : text.split("&")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                return Optional.empty();
            }
            try {
                String name = URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                if (params.put(name, value) != null) {
                    return Optional.empty(); // a name given twice
                }
            } catch (IllegalArgumentException e) {
                return Optional.empty(); // a broken escape
            }
        }
        return Optional.of(params);
    }
}
