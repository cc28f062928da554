package io.ax.executor;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The URL prefixes HTTP tasks may call. A URL is allowed when its scheme, host and port equal those of a prefix and
 * its normalized path lies under the prefix's path at a segment boundary: {@code https://api.example.com/v1}
 * allows {@code https://api.example.com/v1/orders}, not {@code https://api.example.com/v10} nor {@code
 * https://api.example.com.evil.org/v1}, nor {@code https://api.example.com/v1/../admin}. Immutable.
 */
final class UrlAllowList {

    private record Prefix(String text, String scheme, String host, int port, String path) {}

    private final List<Prefix> prefixes;

    /** @throws IllegalArgumentException when a prefix is not an absolute http(s) URL */
    UrlAllowList(List<String> prefixes) {
        List<Prefix> parsed = new ArrayList<>();
        for (String text : prefixes) {
            URI uri = parse(text);
            if (uri == null || !isHttp(uri) || uri.getHost() == null) {
                throw new IllegalArgumentException(
                        "ax.http.allowed-urls: '" + text + "' is not an absolute http or https URL");
            }
            String path = uri.normalize().getRawPath();
            parsed.add(new Prefix(text, scheme(uri), host(uri), port(uri), path == null ? "" : path));
        }
        this.prefixes = List.copyOf(parsed);
    }

    /** The prefixes as configured, for messages. */
    List<String> texts() {
        return prefixes.stream().map(Prefix::text).toList();
    }

    boolean allows(URI uri) {
        if (!isHttp(uri) || uri.getHost() == null || uri.getRawUserInfo() != null) {
            return false;
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        if (!uri.normalize().getRawPath().equals(path) || path.contains("/../") || path.endsWith("/..")) {
            return false; // dot segments could climb out of an allowed path on the server
        }
        for (Prefix p : prefixes) {
            if (p.scheme().equals(scheme(uri))
                    && p.host().equals(host(uri))
                    && p.port() == port(uri)
                    && underPath(path, p.path())) {
                return true;
            }
        }
        return false;
    }

    private static boolean underPath(String path, String prefix) {
        if (prefix.isEmpty() || prefix.equals("/")) {
            return true;
        }
        if (prefix.endsWith("/")) {
            return path.startsWith(prefix) || path.equals(prefix.substring(0, prefix.length() - 1));
        }
        return path.equals(prefix) || path.startsWith(prefix + "/");
    }

    static URI parse(String text) {
        try {
            return new URI(text);
        } catch (URISyntaxException e) {
            return null;
        }
    }

    private static boolean isHttp(URI uri) {
        String scheme = uri.getScheme();
        return scheme != null && (scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"));
    }

    private static String scheme(URI uri) {
        return uri.getScheme().toLowerCase(Locale.ROOT);
    }

    private static String host(URI uri) {
        return uri.getHost().toLowerCase(Locale.ROOT);
    }

    private static int port(URI uri) {
        if (uri.getPort() >= 0) {
            return uri.getPort();
        }
        return scheme(uri).equals("https") ? 443 : 80;
    }
}
