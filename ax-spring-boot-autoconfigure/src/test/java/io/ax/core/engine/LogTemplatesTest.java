package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The engine logs through {@link System.Logger}, whose parameters are formatted by {@link java.text.MessageFormat}:
 * there a single quote starts a quoted section, so {@code "the leader's plan: {0}"} prints {@code {0}} and drops the
 * quote. Every template in the main sources that takes parameters writes a quote as two.
 */
class LogTemplatesTest {

    private static final Pattern CALL = Pattern.compile("LOG\\.log\\(");
    private static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern PARAMETER = Pattern.compile("\\{\\d+}");
    private static final Pattern LONE_QUOTE = Pattern.compile("(?<!')'(?!')");

    @Test
    void everyTemplateWithParametersDoublesItsQuotes() throws IOException {
        List<String> broken = new ArrayList<>();
        int templates = 0;
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String source = Files.readString(file);
                Matcher call = CALL.matcher(source);
                while (call.find()) {
                    String template = template(source, call.end() - 1);
                    if (PARAMETER.matcher(template).find()) {
                        templates++;
                        if (LONE_QUOTE.matcher(template).find()) {
                            broken.add(file.getFileName() + ": " + template);
                        }
                    }
                }
            }
        }
        assertThat(templates).as("templates found: the scan reads the sources").isGreaterThan(50);
        assertThat(broken)
                .as("templates whose single quotes MessageFormat would eat")
                .isEmpty();
    }

    /** The string literals of the call whose opening parenthesis is at {@code open}, joined. */
    private static String template(String source, int open) {
        int depth = 0;
        int i = open;
        StringBuilder literals = new StringBuilder();
        while (i < source.length()) {
            char c = source.charAt(i);
            if (c == '"') {
                Matcher literal = LITERAL.matcher(source).region(i, source.length());
                if (literal.lookingAt()) {
                    literals.append(literal.group(1));
                    i = literal.end();
                    continue;
                }
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                break;
            }
            i++;
        }
        return literals.toString();
    }
}
