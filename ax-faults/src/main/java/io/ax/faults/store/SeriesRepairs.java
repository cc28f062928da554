package io.ax.faults.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * How many series the nodes' reconciliation found stopped and repaired, by their WARN lines: a handover or a refused
 * write that lost a series' next fire. The net of the engine, which a run should never need (0).
 */
public final class SeriesRepairs {

    private static final Pattern REPAIRED = Pattern.compile("AX found ([\\d,]+) task\\(s\\) whose series had stopped");

    private SeriesRepairs() {}

    /** The series repaired in every node log ({@code <node>-<n>.log}) of {@code workDir}. */
    public static long count(Path workDir) throws IOException {
        long repaired = 0;
        try (Stream<Path> files = Files.list(workDir)) {
            for (Path log : files.filter(p -> p.getFileName().toString().matches("n\\d+-\\d+\\.log"))
                    .toList()) {
                repaired += count(Files.readAllLines(log, StandardCharsets.UTF_8));
            }
        }
        return repaired;
    }

    static long count(List<String> lines) {
        long repaired = 0;
        for (String line : lines) {
            Matcher m = REPAIRED.matcher(line);
            if (m.find()) {
                repaired += Long.parseLong(m.group(1).replace(",", ""));
            }
        }
        return repaired;
    }
}
