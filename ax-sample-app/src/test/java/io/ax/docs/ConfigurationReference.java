package io.ax.docs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code docs/configuration.md}, made from the configuration metadata that the AX jars carry (the text IDEs show): one
 * table per group of settings, a row per property of the metadata with its type, default and description, and no row
 * that is not in the metadata.
 */
final class ConfigurationReference {

    /** A property of the metadata, as the reference shows it. */
    record Property(String name, String type, String defaultValue, String description, String group) {}

    /** The sections, by the group whose properties they hold, in the order a reader meets them. */
    private static final Map<String, String> SECTIONS = new LinkedHashMap<>();

    static {
        SECTIONS.put("ax", "General");
        SECTIONS.put("ax.retry", "Retry defaults ([failures](failures.md))");
        SECTIONS.put("ax.misfire", "Misfires ([jobs and triggers](jobs-and-triggers.md))");
        SECTIONS.put("ax.adopt", "Adopting existing schedules");
        SECTIONS.put("ax.payload", "Payloads of delayed tasks ([jobs and triggers](jobs-and-triggers.md))");
        SECTIONS.put("ax.wheel", "The time wheel");
        SECTIONS.put("ax.dispatch", "Dispatch");
        SECTIONS.put("ax.prefetch", "Prefetch: what the wheel holds");
        SECTIONS.put("ax.shutdown", "Shutdown");
        SECTIONS.put("ax.memory", "The in-memory store");
        SECTIONS.put("ax.jdbc", "The JDBC store ([upgrading](upgrading.md))");
        SECTIONS.put("ax.cluster", "The cluster ([running replicas](replicas.md))");
        SECTIONS.put("ax.clock", "Clocks ([running replicas](replicas.md))");
        SECTIONS.put("ax.retention", "Retention ([operations](operations.md))");
        SECTIONS.put("ax.http", "HTTP tasks ([jobs and triggers](jobs-and-triggers.md))");
        SECTIONS.put("ax.shell", "Shell tasks ([jobs and triggers](jobs-and-triggers.md))");
        SECTIONS.put("ax.redis", "Redis ([Redis](redis.md))");
        SECTIONS.put("ax.redis.lock", "Redis locks ([Redis](redis.md))");
        SECTIONS.put("ax.health", "The health component ([operations](operations.md))");
        SECTIONS.put("ax.metrics", "Metrics ([operations](operations.md))");
        SECTIONS.put("ax.dashboard", "The dashboard ([operations](operations.md))");
        SECTIONS.put("management.endpoint.ax", "The Actuator endpoint ([operations](operations.md))");
        SECTIONS.put("ax.test", "The test kit, in tests only ([testing](testing.md))");
    }

    private ConfigurationReference() {}

    /** Every property of AX's metadata on the class path (the engine's and the test kit's), by name. */
    static List<Property> properties() {
        Map<String, Property> properties = new TreeMap<>();
        List<String> groups = new ArrayList<>();
        try {
            for (URL url : Collections.list(ConfigurationReference.class
                    .getClassLoader()
                    .getResources("META-INF/spring-configuration-metadata.json"))) {
                JsonNode metadata;
                try (InputStream in = url.openStream()) {
                    metadata = JsonMapper.shared().readTree(in);
                }
                for (JsonNode group : metadata.path("groups")) {
                    if (group.path("sourceType").asString("").startsWith("io.ax.")) {
                        groups.add(group.path("name").asString());
                    }
                }
                for (JsonNode p : metadata.path("properties")) {
                    if (!p.path("sourceType").asString("").startsWith("io.ax.")) {
                        continue;
                    }
                    String name = p.path("name").asString();
                    properties.put(
                            name,
                            new Property(
                                    name,
                                    p.path("type").asString(""),
                                    p.has("defaultValue") ? defaultOf(p.get("defaultValue")) : null,
                                    p.path("description").asString(""),
                                    null));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Property> found = new ArrayList<>();
        for (Property p : properties.values()) {
            String group = groups.stream()
                    .filter(g -> p.name().startsWith(g + "."))
                    .max(Comparator.comparingInt(String::length))
                    .orElse("ax");
            found.add(new Property(p.name(), p.type(), p.defaultValue(), p.description(), group));
        }
        return found;
    }

    /** The page. */
    static String markdown() {
        Map<String, List<Property>> bySection = properties().stream()
                .collect(Collectors.groupingBy(Property::group, LinkedHashMap::new, Collectors.toList()));
        StringBuilder page = new StringBuilder();
        page.append("""
                # Configuration reference

                Every setting of AX, with its type, default and description: the configuration metadata inside the AX
                jars, which your IDE shows as you type in `application.yml`. This page is generated from it (the
                build checks that they agree; `./mvnw -pl ax-sample-app -am verify -Dtest=ConfigurationReferenceTest
                -Dsurefire.failIfNoSpecifiedTests=false -Dax.docs.write=true` writes it again).

                Durations take `500ms`, `5s`, `2m`, `1h`, `1d` or ISO-8601 (`PT5S`); sizes `4KB`, `16MB`. Environment
                variables work as for any Spring Boot property (`AX_CLUSTER_LEASE=15s`). A key under `ax.` that AX
                does not read is reported at start-up, and fails it with `ax.strict-properties=true`.
                """);
        for (Map.Entry<String, String> section : SECTIONS.entrySet()) {
            List<Property> rows = bySection.remove(section.getKey());
            if (rows == null) {
                continue;
            }
            page.append("\n## ").append(section.getValue()).append("\n\n");
            page.append("| property | type | default | description |\n|---|---|---|---|\n");
            for (Property p : rows) {
                page.append("| `")
                        .append(p.name())
                        .append("` | ")
                        .append(typeOf(p.type()))
                        .append(" | ")
                        .append(p.defaultValue() == null ? "" : "`" + p.defaultValue() + "`")
                        .append(" | ")
                        .append(cell(p.description()))
                        .append(" |\n");
            }
        }
        if (!bySection.isEmpty()) {
            throw new IllegalStateException("groups without a section in the reference: " + bySection.keySet());
        }
        return page.toString();
    }

    private static String defaultOf(JsonNode value) {
        if (value.isArray()) {
            List<String> items = new ArrayList<>();
            value.forEach(v -> items.add(v.asString()));
            return String.join(", ", items);
        }
        return value.asString();
    }

    /** A type as a reader says it: a duration, a number, one of an enum's values, a map of what. */
    static String typeOf(String type) {
        if (type.isEmpty()) {
            return "";
        }
        if (type.startsWith("java.util.Map<java.lang.String,")) {
            return "map of name to "
                    + typeOf(type.substring("java.util.Map<java.lang.String,".length(), type.length() - 1));
        }
        if (type.startsWith("java.util.List<")) {
            return "list of " + typeOf(type.substring("java.util.List<".length(), type.length() - 1));
        }
        try {
            Class<?> c =
                    Class.forName(type.replaceAll("<.*", ""), false, ConfigurationReference.class.getClassLoader());
            if (c.isEnum()) {
                List<String> values = new ArrayList<>();
                for (Object constant : c.getEnumConstants()) {
                    values.add("`"
                            + ((Enum<?>) constant)
                                    .name()
                                    .toLowerCase(Locale.ROOT)
                                    .replace('_', '-') + "`");
                }
                return String.join(" \\| ", values);
            }
            return switch (c.getName()) {
                case "java.lang.Boolean", "boolean" -> "boolean";
                case "java.lang.Integer", "int", "java.lang.Long", "long" -> "number";
                case "java.lang.String" -> "text";
                case "java.time.Duration" -> "duration";
                case "org.springframework.util.unit.DataSize" -> "size";
                case "java.time.ZoneId" -> "time zone";
                case "java.nio.file.Path" -> "path";
                default -> c.getSimpleName();
            };
        } catch (ClassNotFoundException e) {
            return type.substring(type.lastIndexOf('.') + 1).replace('$', '.');
        }
    }

    /** A description in one table cell: one line, pipes escaped. */
    private static String cell(String text) {
        return text.replace("\n", " ").replace("|", "\\|").strip();
    }
}
