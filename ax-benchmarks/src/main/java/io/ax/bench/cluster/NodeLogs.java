package io.ax.bench.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What the nodes' logs say went wrong: the WARN and ERROR lines and stack traces of the node JVMs, counted by
 * message with the ids and numbers taken out, so that a thousand times the same warning reads as one line.
 */
final class NodeLogs {

    private static final Pattern LEVEL = Pattern.compile("\\] (WARN|ERROR) ");
    private static final Pattern VARYING =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\\b\\d+(\\.\\d+)?\\b");

    private NodeLogs() {}

    /** Message (ids and numbers as {@code #}) -> how many lines, over all {@code logs}. */
    static Map<String, Integer> problems(List<Path> logs) throws IOException {
        Map<String, Integer> out = new TreeMap<>();
        for (Path log : logs) {
            if (!Files.exists(log)) {
                continue;
            }
            for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                var m = LEVEL.matcher(line);
                String key = null;
                if (m.find()) {
                    key = m.group(1) + " " + line.substring(m.end());
                } else if (line.startsWith("Exception") || line.startsWith("Caused by")) {
                    key = line;
                }
                if (key != null) {
                    key = VARYING.matcher(key).replaceAll("#");
                    if (key.length() > 300) {
                        key = key.substring(0, 300) + "...";
                    }
                    out.merge(key, 1, Integer::sum);
                }
            }
        }
        return out;
    }
}
