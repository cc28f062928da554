package io.ax.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every {@code java} block of README and {@code docs/} is code that this build compiles: the text of a tagged region
 * ({@code // tag::name[]} ... {@code // end::name[]}) of a source file of the sample application, its main code or its
 * tests (the guides' own examples are under {@code src/test/java/io/ax/docs/}, outside the sample's component scan), or
 * of the adoption sample (the ordinary application of the migration guide).
 * Compare after removing the common indentation and trailing blanks; a block that is a fragment on purpose says so in
 * the comment before it ({@code <!-- fragment: why -->}).
 */
class DocsJavaTest {

    /** The sample's sources, and the adoption sample's: the application whose jobs the migration guide shows. */
    private static final List<Path> SOURCES =
            List.of(Markdown.ROOT.resolve("ax-sample-app/src"), Markdown.ROOT.resolve("ax-adoption-sample/src"));

    private static final Pattern TAG = Pattern.compile("^\\s*//\\s*(tag|end)::([\\w-]+)\\[]\\s*$");

    @TestFactory
    Stream<DynamicTest> everyJavaBlockIsARegionOfCompiledCode() {
        Map<String, String> regions = regions();
        return javaBlocks().stream()
                .map(block -> DynamicTest.dynamicTest(block.where(), () -> {
                    String text = normalized(block.text());
                    if (!regions.containsValue(text)) {
                        throw new AssertionError("The java block at " + block.where()
                                + " is no tagged region of the sample's sources (or is it a fragment? say so: <!-- fragment:"
                                + " why -->).\nIts text:\n" + text + "\nThe nearest region, " + nearest(text, regions)
                                + "\n");
                    }
                }));
    }

    @Test
    void theGuidesHaveJavaBlocksToCheck() {
        assertThat(javaBlocks()).hasSizeGreaterThan(10);
        assertThat(regions()).isNotEmpty();
    }

    private static List<Markdown.Block> javaBlocks() {
        List<Markdown.Block> blocks = new ArrayList<>();
        for (Markdown doc : Markdown.userDocs()) {
            doc.blocks().stream()
                    .filter(b -> b.language().equals("java") && !b.fragment())
                    .forEach(blocks::add);
        }
        return blocks;
    }

    /** Every tagged region of the sample's Java sources, by {@code file#name}, normalized. */
    static Map<String, String> regions() {
        Map<String, String> regions = new LinkedHashMap<>();
        for (Path sources : SOURCES) {
            try (Stream<Path> files = Files.walk(sources)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java"))
                        .sorted()
                        .toList()) {
                    regionsOf(file, Files.readAllLines(file), regions);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return regions;
    }

    private static void regionsOf(Path file, List<String> lines, Map<String, String> regions) {
        Map<String, StringBuilder> open = new LinkedHashMap<>();
        for (String line : lines) {
            Matcher tag = TAG.matcher(line);
            if (tag.matches()) {
                String name = tag.group(2);
                if (tag.group(1).equals("tag")) {
                    open.put(name, new StringBuilder());
                } else {
                    StringBuilder region = open.remove(name);
                    assertThat(region)
                            .as("end::" + name + " in " + file + " closes a region")
                            .isNotNull();
                    regions.put(Markdown.ROOT.relativize(file) + "#" + name, normalized(region.toString()));
                }
                continue;
            }
            open.values().forEach(region -> region.append(line).append('\n'));
        }
        assertThat(open.keySet()).as("regions left open in " + file).isEmpty();
    }

    /** Without the common indentation, trailing blanks and the blank lines around it. */
    static String normalized(String text) {
        List<String> lines =
                new ArrayList<>(text.lines().map(String::stripTrailing).toList());
        while (!lines.isEmpty() && lines.get(0).isEmpty()) {
            lines.remove(0);
        }
        while (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        int indent = lines.stream()
                .filter(l -> !l.isEmpty())
                .mapToInt(l -> l.length() - l.stripLeading().length())
                .min()
                .orElse(0);
        StringBuilder out = new StringBuilder();
        for (String line : lines) {
            out.append(line.isEmpty() ? "" : line.substring(indent)).append('\n');
        }
        return out.toString();
    }

    /** The region that shares the most lines with {@code text}, with the first line where they part. */
    private static String nearest(String text, Map<String, String> regions) {
        List<String> wanted = text.lines().toList();
        return regions.entrySet().stream()
                .max(Comparator.comparingLong(
                        r -> r.getValue().lines().filter(wanted::contains).count()))
                .map(r -> {
                    List<String> have = r.getValue().lines().toList();
                    int i = 0;
                    while (i < wanted.size() && i < have.size() && wanted.get(i).equals(have.get(i))) {
                        i++;
                    }
                    return r.getKey() + ", parts at its line " + (i + 1) + ":\n  block:  "
                            + (i < wanted.size() ? wanted.get(i) : "(ends)") + "\n  region: "
                            + (i < have.size() ? have.get(i) : "(ends)");
                })
                .orElse("none");
    }
}
