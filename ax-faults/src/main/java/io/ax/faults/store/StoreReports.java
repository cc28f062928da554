package io.ax.faults.store;

import io.ax.faults.Log;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What the nodes said about their store going back in time or changing: every ERROR record of a node log whose text
 * says so, with the instance ids it names (in its line and the lines that continue it), goes to {@code faults_said}
 * in the witness, for the checker to match the violations it finds in a failover's lost window against. Read after
 * the nodes stopped; a record is stamped with the time its line starts with (the node's clock, which a clock fault
 * skews by seconds), or the log's last modification when the line has none.
 */
public final class StoreReports {

    /** A log record's start: Spring Boot's default ISO-8601 timestamp, then the level. */
    private static final Pattern RECORD =
            Pattern.compile("^(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d+(?:Z|[+-]\\d{2}:?\\d{2}))\\s+(\\w+)\\s");

    /** What an ERROR about the store going back in time or becoming another server says. */
    static final Pattern WENT_BACK = Pattern.compile(
            "(?i)(went back|back in time|timeline|system identifier|lost (writes|commits|what)|another (server|store)"
                    + "|store (regress|changed))");

    private static final Pattern INSTANCE_ID =
            Pattern.compile("\\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\b");

    private StoreReports() {}

    /** One thing a node said. */
    record Said(String node, String file, long atUs, String line, Set<String> instanceIds) {}

    /**
     * Reads every node log ({@code <node>-<n>.log}) of {@code workDir} and records what they said.
     *
     * @return how many records said the store went back
     */
    public static int record(Path workDir, JdbcTemplate witness) throws IOException {
        List<Said> all = new ArrayList<>();
        try (Stream<Path> files = Files.list(workDir)) {
            for (Path log : files.filter(p -> p.getFileName().toString().matches("n\\d+-\\d+\\.log"))
                    .sorted()
                    .toList()) {
                all.addAll(read(log, Files.readAllLines(log, StandardCharsets.UTF_8)));
            }
        }
        for (Said s : all) {
            witness.update(
                    "INSERT INTO faults_said (node, log_file, at_us, line, instance_ids) VALUES (?, ?, ?, ?, ?)",
                    s.node(),
                    s.file(),
                    s.atUs(),
                    s.line().length() > 4000 ? s.line().substring(0, 4000) : s.line(),
                    String.join(",", s.instanceIds()));
        }
        Log.info("the nodes said %d time(s) that their store went back in time or changed", all.size());
        return all.size();
    }

    /** The records of one log that say the store went back, each with the ids named in it and its continuation. */
    static List<Said> read(Path log, List<String> lines) {
        String file = log.getFileName().toString();
        String node = file.substring(0, file.indexOf('-'));
        List<Said> out = new ArrayList<>();
        String record = null;
        StringBuilder text = new StringBuilder();
        for (String line : lines) {
            Matcher m = RECORD.matcher(line);
            if (m.find()) {
                said(node, file, record, text, out);
                record = m.group(2).equals("ERROR") ? m.group(1) : null;
                text.setLength(0);
                text.append(line);
            } else if (record != null) {
                text.append('\n').append(line);
            }
        }
        said(node, file, record, text, out);
        return out;
    }

    private static void said(String node, String file, String stamp, StringBuilder text, List<Said> out) {
        if (stamp == null || !WENT_BACK.matcher(text).find()) {
            return;
        }
        Set<String> ids = new LinkedHashSet<>();
        Matcher m = INSTANCE_ID.matcher(text);
        while (m.find()) {
            ids.add(m.group());
        }
        long at;
        try {
            at = OffsetDateTime.parse(stamp).toInstant().toEpochMilli() * 1_000;
        } catch (DateTimeParseException e) {
            at = 0;
        }
        String first = text.toString().lines().findFirst().orElse("");
        out.add(new Said(node, file, at, first, ids));
    }
}
