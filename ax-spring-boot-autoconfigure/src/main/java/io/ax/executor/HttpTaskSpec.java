package io.ax.executor;

import io.ax.core.AxTask;
import io.ax.core.InvalidTaskException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What an HTTP task asks for, read from its target (the URL) and parameters: {@code method} (default GET), {@code
 * body}, {@code header.<Name>} and {@code success-status} (default {@code 2xx}). Every other parameter is only a
 * variable. Checked once, when the task is defined; immutable.
 */
record HttpTaskSpec(String method, String url, Map<String, String> headers, String body, SuccessStatuses success) {

    static final String METHOD = "method";
    static final String BODY = "body";
    static final String HEADER = "header.";
    static final String SUCCESS_STATUS = "success-status";

    private static final Pattern TOKEN = Pattern.compile("[A-Z][A-Z0-9_-]{0,31}");
    private static final Pattern HEADER_NAME = Pattern.compile("[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}");
    /** Headers the JDK client sets itself and refuses from callers. */
    private static final Set<String> RESTRICTED = Set.of("connection", "content-length", "expect", "host", "upgrade");

    /** Reads and checks the HTTP side of {@code task} against the allow-list. */
    static HttpTaskSpec of(AxTask task, UrlAllowList allowList) {
        Map<String, String> params = task.params();
        String method = params.getOrDefault(METHOD, "GET").trim().toUpperCase(java.util.Locale.ROOT);
        if (!TOKEN.matcher(method).matches()) {
            throw invalid(task, "params." + METHOD, "'" + method + "' is not an HTTP method");
        }
        SuccessStatuses success = SuccessStatuses.DEFAULT;
        if (params.containsKey(SUCCESS_STATUS)) {
            try {
                success = SuccessStatuses.parse(params.get(SUCCESS_STATUS));
            } catch (IllegalArgumentException e) {
                throw invalid(task, "params." + SUCCESS_STATUS, e.getMessage());
            }
        }
        Map<String, String> headers = new LinkedHashMap<>();
        params.forEach((key, value) -> {
            if (key.startsWith(HEADER)) {
                String name = key.substring(HEADER.length());
                if (!HEADER_NAME.matcher(name).matches()
                        || RESTRICTED.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                    throw invalid(task, "params." + key, "'" + name + "' is not a header an HTTP task may set");
                }
                if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
                    // the value itself is never shown: it may be a credential
                    throw invalid(task, "params." + key, "a header value must not contain a line break");
                }
                checkVariables(task, "params." + key, value);
                headers.put(name, value);
            }
        });
        String body = params.get(BODY);
        if (body != null) {
            checkVariables(task, "params." + BODY, body);
        }
        String url = task.target().trim();
        checkVariables(task, "target", url);
        checkUrl(task, url, allowList);
        return new HttpTaskSpec(method, url, Map.copyOf(headers), body, success);
    }

    /**
     * The URL must be allowed whatever the variables hold: no variable may stand in the scheme, host or port, and
     * rendered with two different samples for the built-in variables it must be allowed both times.
     */
    private static void checkUrl(AxTask task, String url, UrlAllowList allowList) {
        if (!Templates.variables(url.substring(0, authorityEnd(url))).isEmpty()) {
            throw invalid(task, "target", "a variable may not choose the scheme, host or port of '" + url + "'");
        }
        URI a = UrlAllowList.parse(render(url, task.params(), "a"));
        URI b = UrlAllowList.parse(render(url, task.params(), "b"));
        if (a == null || b == null || a.getScheme() == null || a.getHost() == null) {
            throw invalid(task, "target", "'" + url + "' is not an absolute http or https URL");
        }
        if (!allowList.allows(a) || !allowList.allows(b)) {
            throw invalid(
                    task,
                    "target",
                    "'" + url + "' is not under any of ax.http.allowed-urls " + allowList.texts()
                            + "; add its prefix there to allow it");
        }
    }

    private static int authorityEnd(String url) {
        int start = url.indexOf("://");
        if (start < 0) {
            return url.length();
        }
        for (int i = start + 3; i < url.length(); i++) {
            char c = url.charAt(i);
            if (c == '/' || c == '?' || c == '#') {
                return i;
            }
        }
        return url.length();
    }

    private static String render(String url, Map<String, String> params, String sample) {
        Map<String, String> values = new java.util.HashMap<>(params);
        for (String name : Templates.BUILT_IN) {
            values.put(name, sample);
        }
        return Templates.render(url, values, HttpTaskSpec::encode);
    }

    private static void checkVariables(AxTask task, String attribute, String template) {
        String unknown = Templates.unknownVariable(template, task.params());
        if (unknown != null) {
            throw invalid(task, attribute, unknown);
        }
    }

    /**
     * Percent-encodes a value for any part of a URL: everything but letters, digits, {@code -}, {@code _} and
     * {@code ~} (dots too, so that a value cannot become a {@code ..} segment).
     */
    static String encode(String value) {
        StringBuilder out = new StringBuilder();
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || c == '-'
                    || c == '_'
                    || c == '~') {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)));
                out.append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString();
    }

    private static InvalidTaskException invalid(AxTask task, String attribute, String reason) {
        return new InvalidTaskException(task.name(), attribute, reason);
    }
}
