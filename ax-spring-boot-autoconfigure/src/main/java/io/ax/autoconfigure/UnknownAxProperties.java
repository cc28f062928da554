package io.ax.autoconfigure;

import io.ax.autoconfigure.definitions.AxTaskProperties;
import io.ax.autoconfigure.redis.AxRedisProperties;
import java.beans.IntrospectionException;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * The keys under {@code ax.} that no AX setting reads: a typo ({@code ax.defualt-zone}), a singular for a plural
 * ({@code ax.pool.default.threads}), a key below a map entry that its value does not have ({@code
 * ax.tasks.report.crn}). Each comes with where it was set and the nearest name AX knows.
 *
 * <p>What AX reads is found by binding its settings classes to the environment and noting every key that bound, so
 * keys below the maps ({@code ax.tasks.<name>.*}, {@code ax.pools.<group>.*}) are checked below the map key, with
 * Spring's relaxed names. Environment variables are not checked: {@code AX_} is a short prefix that other tools use
 * too, and AX's own scripts and tests set some that are not settings; a setting given as one (relaxed, {@code
 * AX_DEFAULT_ZONE}) binds as ever. The names suggested come from AX's configuration metadata and the settings classes
 * of the maps' values; a name in the metadata of any jar is known, so the settings of an AX module that binds them
 * itself (the test support's {@code ax.test.*}) are not reported.
 */
final class UnknownAxProperties {

    /** The settings classes AX binds, with their prefixes. */
    private static final List<Map.Entry<String, Class<?>>> SETTINGS = List.of(
            Map.entry("ax", AxProperties.class),
            Map.entry("ax", AxTaskProperties.class),
            Map.entry("ax.http", AxHttpProperties.class),
            Map.entry("ax.redis", AxRedisProperties.class),
            Map.entry("ax.shell", AxShellProperties.class));
    /** One property of the metadata: no nested objects in AX's, and name before type, as the processor writes. */
    private static final Pattern PROPERTY = Pattern.compile(
            "\\{[^{}]*?\"name\"\\s*:\\s*\"([^\"]+)\"(?:[^{}]*?\"type\"\\s*:\\s*\"([^\"]+)\")?[^{}]*\\}");

    private static final ConfigurationPropertyName AX = ConfigurationPropertyName.of("ax");
    private static final String METADATA = "META-INF/spring-configuration-metadata.json";

    /** One key AX does not read. */
    record Unknown(String name, String origin, String suggestion) {

        String describe() {
            return name
                    + (origin == null ? "" : " (" + origin + ")")
                    + (suggestion == null ? "" : ": did you mean " + suggestion + "?");
        }
    }

    private UnknownAxProperties() {}

    /** The keys under {@code ax.} set in {@code environment} that no AX setting reads, in name order. */
    static List<Unknown> in(ConfigurableEnvironment environment) {
        Set<ConfigurationPropertyName> bound = boundNames(environment);
        Set<String> seen = new TreeSet<>();
        List<Unknown> unknown = new ArrayList<>();
        List<String> known = knownNames();
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (!(source instanceof IterableConfigurationPropertySource iterable)
                    || source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource
                    || isSystemEnvironment(source.getUnderlyingSource())) {
                continue;
            }
            iterable.stream()
                    .filter(AX::isAncestorOf)
                    .filter(name -> !bound.contains(name) && !bound.contains(withoutIndexes(name)))
                    .filter(name -> !known.contains(name.toString())) // an AX module's own settings (ax.test.*)
                    .forEach(name -> {
                        if (seen.add(name.toString())) {
                            String origin = origin(source.getConfigurationProperty(name));
                            unknown.add(new Unknown(name.toString(), origin, nearest(name.toString(), known)));
                        }
                    });
        }
        unknown.sort(java.util.Comparator.comparing(Unknown::name));
        return unknown;
    }

    /** Where a key was set: a file and line where known, else the property source's name. */
    private static String origin(ConfigurationProperty property) {
        if (property == null || property.getOrigin() == null) {
            return null;
        }
        Origin origin = property.getOrigin();
        if (origin instanceof PropertySourceOrigin fromSource) {
            // a file's value carries its own origin (the file, line and column) inside the source's
            return fromSource.getOrigin() != null
                    ? "set in " + fromSource.getOrigin()
                    : "set in " + fromSource.getPropertySource().getName();
        }
        return "set in " + origin;
    }

    private static boolean isSystemEnvironment(Object source) {
        return source instanceof PropertySource<?> ps
                && (ps instanceof SystemEnvironmentPropertySource || "systemEnvironment".equals(ps.getName()));
    }

    /** Every key under {@code ax} that one of AX's settings classes binds in this environment. */
    private static Set<ConfigurationPropertyName> boundNames(ConfigurableEnvironment environment) {
        Set<ConfigurationPropertyName> bound = new HashSet<>();
        AbstractBindHandler recorder = new AbstractBindHandler() {
            @Override
            public Object onSuccess(
                    ConfigurationPropertyName name, Bindable<?> target, BindContext context, Object result) {
                bound.add(name);
                return super.onSuccess(name, target, context, result);
            }
        };
        Binder binder = Binder.get(environment);
        for (Map.Entry<String, Class<?>> settings : SETTINGS) {
            try {
                binder.bind(settings.getKey(), Bindable.of(settings.getValue()), recorder);
            } catch (BindException invalid) {
                // a value that does not convert: the binding of the settings themselves says so, not this check
            }
        }
        return bound;
    }

    /** {@code ax.http.allowed-urls[0]} as {@code ax.http.allowed-urls}: a list bound whole binds its elements too. */
    private static ConfigurationPropertyName withoutIndexes(ConfigurationPropertyName name) {
        ConfigurationPropertyName n = name;
        while (n.getNumberOfElements() > 0 && n.isLastElementIndexed()) {
            n = n.getParent();
        }
        return n;
    }

    // ---- the nearest known name -------------------------------------------------------------------------------

    /**
     * The names AX knows, as patterns: {@code ax.default-zone}; and below a map, {@code ax.pools.*.threads}, with
     * {@code *} for the map key.
     */
    private static List<String> knownNames() {
        List<String> names = new ArrayList<>();
        try {
            Enumeration<URL> files = UnknownAxProperties.class.getClassLoader().getResources(METADATA);
            while (files.hasMoreElements()) {
                try (InputStream in = files.nextElement().openStream()) {
                    Matcher m = PROPERTY.matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                    while (m.find()) {
                        String name = m.group(1);
                        if (!name.startsWith("ax.")) {
                            continue;
                        }
                        String value = m.group(2) == null ? null : mapValueType(m.group(2));
                        if (value != null) {
                            for (String below : propertiesOf(value, 0)) {
                                names.add(name + ".*." + below);
                            }
                        }
                        names.add(name);
                    }
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            // without the metadata the check still finds unknown keys; it only suggests nothing
        }
        return names;
    }

    /** The value class of {@code java.util.Map<java.lang.String,io.ax...>}, or null for any other type. */
    private static String mapValueType(String type) {
        String map = "java.util.Map<java.lang.String,";
        if (!type.startsWith(map) || !type.endsWith(">")) {
            return null;
        }
        String value = type.substring(map.length(), type.length() - 1);
        return value.startsWith("io.ax.") ? value : null;
    }

    /** The settings of a class of AX's, in kebab case, with those of its nested settings classes. */
    private static List<String> propertiesOf(String className, int depth) {
        List<String> names = new ArrayList<>();
        try {
            Class<?> type = Class.forName(className, false, UnknownAxProperties.class.getClassLoader());
            for (PropertyDescriptor d :
                    Introspector.getBeanInfo(type, Object.class).getPropertyDescriptors()) {
                String name = kebab(d.getName());
                Class<?> p = d.getPropertyType();
                if (p != null && p.getName().startsWith("io.ax.") && !p.isEnum() && depth < 2) {
                    for (String below : propertiesOf(p.getName(), depth + 1)) {
                        names.add(name + "." + below);
                    }
                } else {
                    names.add(name);
                }
            }
        } catch (ClassNotFoundException | IntrospectionException | LinkageError e) {
            // nothing to suggest below this map
        }
        return names;
    }

    private static String kebab(String camel) {
        StringBuilder out = new StringBuilder();
        for (char c : camel.toCharArray()) {
            if (Character.isUpperCase(c)) {
                out.append('-').append(Character.toLowerCase(c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** The known name nearest to {@code name}, if near enough to be the one meant; null otherwise. */
    static String nearest(String name, List<String> known) {
        String[] parts = name.split("\\.");
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String pattern : known) {
            String[] p = pattern.split("\\.");
            if (p.length == parts.length) {
                int distance = aligned(p, parts, -1);
                if (distance < bestDistance) {
                    bestDistance = distance;
                    best = fill(p, parts, -1);
                }
            } else if (p.length == parts.length + 1) {
                // a level left out, as in ax.tasks.report.cron for ax.tasks.report.trigger.cron: one edit more
                for (int skip = 1; skip < p.length; skip++) {
                    if (p[skip].equals("*")) {
                        continue;
                    }
                    int distance = 1 + aligned(p, parts, skip);
                    if (distance < bestDistance) {
                        bestDistance = distance;
                        best = fill(p, parts, skip);
                    }
                }
            }
        }
        // a typo or two, a letter left out or added; not a name that merely shares a prefix
        return best != null && bestDistance > 0 && bestDistance <= Math.max(2, name.length() / 8) ? best : null;
    }

    /** The summed distance of the parts of a name to a pattern's, the pattern's part {@code skip} left out. */
    private static int aligned(String[] pattern, String[] parts, int skip) {
        int distance = 0;
        for (int i = 0, j = 0; i < pattern.length; i++) {
            if (i == skip) {
                continue;
            }
            distance += pattern[i].equals("*") ? 0 : distance(pattern[i], parts[j]);
            j++;
        }
        return distance;
    }

    /** The pattern with its map keys taken from the name. */
    private static String fill(String[] pattern, String[] parts, int skip) {
        StringBuilder out = new StringBuilder();
        for (int i = 0, j = 0; i < pattern.length; i++) {
            out.append(i == 0 ? "" : ".");
            if (i == skip) {
                out.append(pattern[i]);
                continue;
            }
            out.append(pattern[i].equals("*") ? parts[j] : pattern[i]);
            j++;
        }
        return out.toString();
    }

    /** Levenshtein distance, case-insensitive. */
    private static int distance(String a, String b) {
        a = a.toLowerCase(Locale.ROOT);
        b = b.toLowerCase(Locale.ROOT);
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
