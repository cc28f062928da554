package io.ax.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.autoconfigure.AxAutoConfiguration;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.env.PropertiesPropertySourceLoader;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every {@code yaml} and {@code properties} block of README and {@code docs/} is configuration that binds: each key
 * under {@code spring.}, {@code management.}, {@code server.} and {@code logging.} is one that Spring Boot's metadata
 * knows (or lies below a map it knows), and a block with keys under {@code ax.} starts AX with them, in memory, with
 * {@code ax.strict-properties=true}: so a typo, a value that does not convert, a setting AX refuses or a task it
 * cannot define fails here as it would fail the reader's start-up. The beans its tasks name are {@link DocsBeans}. A
 * block that is no Spring configuration, or that cannot start alone, says so: {@code <!-- fragment: why -->}.
 */
class DocsSettingsTest {

    private static final Set<String> SPRING_ROOTS = Set.of("spring", "management", "server", "logging");
    private static final Set<String> SAMPLE_ROOTS = Set.of("sample");

    @TestFactory
    Stream<DynamicTest> everySettingsBlockBinds() {
        Metadata metadata = Metadata.onClassPath();
        return settingsBlocks().stream()
                .map(block -> DynamicTest.dynamicTest(block.where(), () -> binds(block, metadata)));
    }

    @Test
    void theGuidesHaveSettingsToCheck() {
        assertThat(settingsBlocks()).hasSizeGreaterThan(10);
    }

    private static void binds(Markdown.Block block, Metadata metadata) {
        Map<String, String> properties = properties(block);
        assertThat(properties).as("the settings of " + block.where()).isNotEmpty();
        List<String> problems = new ArrayList<>();
        for (String key : properties.keySet()) {
            String root = key.contains(".") ? key.substring(0, key.indexOf('.')) : key;
            if (SPRING_ROOTS.contains(root) && !metadata.knows(key)) {
                problems.add(key + ": Spring Boot's metadata knows no such property");
            } else if (SAMPLE_ROOTS.contains(root) && !sampleReads(key)) {
                problems.add(key + ": the sample application reads no such property");
            } else if (!root.equals("ax") && !SPRING_ROOTS.contains(root) && !SAMPLE_ROOTS.contains(root)) {
                problems.add(key + ": not Spring configuration (a fragment? say so: <!-- fragment: why -->)");
            }
        }
        assertThat(problems).as("the settings of " + block.where()).isEmpty();
        if (properties.keySet().stream().anyMatch(k -> k.startsWith("ax."))) {
            List<String> values = new ArrayList<>();
            properties.forEach((k, v) -> values.add(k + "=" + v));
            values.add("ax.strict-properties=true");
            new ApplicationContextRunner()
                    .withConfiguration(AutoConfigurations.of(AxAutoConfiguration.class))
                    .withUserConfiguration(DocsBeans.class)
                    .withPropertyValues(values.toArray(String[]::new))
                    .run(context -> assertThat(context)
                            .as("AX starts with the settings of " + block.where())
                            .hasNotFailed());
        }
    }

    private static List<Markdown.Block> settingsBlocks() {
        List<Markdown.Block> blocks = new ArrayList<>();
        for (Markdown doc : Markdown.userDocs()) {
            doc.blocks().stream()
                    .filter(b -> (b.language().equals("yaml")
                                    || b.language().equals("yml")
                                    || b.language().equals("properties"))
                            && !b.fragment())
                    .forEach(blocks::add);
        }
        return blocks;
    }

    /** The block's keys and values, flattened as Spring reads them ({@code a.b[0]}). */
    static Map<String, String> properties(Markdown.Block block) {
        try {
            ByteArrayResource text =
                    new ByteArrayResource(block.text().getBytes(StandardCharsets.UTF_8), block.where());
            List<PropertySource<?>> sources = block.language().equals("properties")
                    ? new PropertiesPropertySourceLoader().load(block.where(), text)
                    : new YamlPropertySourceLoader().load(block.where(), text);
            Map<String, String> properties = new LinkedHashMap<>();
            for (PropertySource<?> source : sources) {
                for (String name : ((EnumerablePropertySource<?>) source).getPropertyNames()) {
                    properties.put(name, String.valueOf(source.getProperty(name)));
                }
            }
            return properties;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether the sample's own code or configuration names the key. */
    private static boolean sampleReads(String key) {
        try (Stream<Path> files = Files.walk(Markdown.ROOT.resolve("ax-sample-app/src/main"))) {
            return files.filter(Files::isRegularFile).anyMatch(f -> {
                try {
                    return Files.readString(f).contains(key.substring(key.lastIndexOf('.') + 1));
                } catch (IOException e) {
                    return false;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The configuration metadata of every jar on the class path: names, and which of them are maps. */
    record Metadata(Set<String> names, Set<String> maps) {

        static Metadata onClassPath() {
            Set<String> names = new java.util.HashSet<>();
            Set<String> maps = new java.util.HashSet<>();
            try {
                for (URL url : Collections.list(DocsSettingsTest.class
                        .getClassLoader()
                        .getResources("META-INF/spring-configuration-metadata.json"))) {
                    try (InputStream in = url.openStream()) {
                        read(JsonMapper.shared().readTree(in), names, maps);
                    }
                }
                for (URL url : Collections.list(DocsSettingsTest.class
                        .getClassLoader()
                        .getResources("META-INF/additional-spring-configuration-metadata.json"))) {
                    try (InputStream in = url.openStream()) {
                        read(JsonMapper.shared().readTree(in), names, maps);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return new Metadata(names, maps);
        }

        private static void read(JsonNode metadata, Set<String> names, Set<String> maps) {
            for (JsonNode property : metadata.path("properties")) {
                String name = property.path("name").asString();
                names.add(name);
                String type = property.path("type").asString("");
                if (type.startsWith("java.util.Map<") || type.equals("java.util.Map")) {
                    maps.add(name);
                }
            }
        }

        /** Whether a key (as written in a file) is a property, an element of a list property, or below a map. */
        boolean knows(String key) {
            String name = key.replaceAll("\\[\\d+]", "");
            if (names.contains(name)) {
                return true;
            }
            for (int dot = name.lastIndexOf('.'); dot > 0; dot = name.lastIndexOf('.', dot - 1)) {
                if (maps.contains(name.substring(0, dot))) {
                    return true;
                }
            }
            return false;
        }
    }
}
