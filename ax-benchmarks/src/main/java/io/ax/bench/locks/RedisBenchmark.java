package io.ax.bench.locks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Redis's own {@code redis-benchmark} on the same server, run as a child process with {@code --csv}: the baseline
 * of what the server answers to one command from that many clients, without AX or Lettuce in between.
 */
final class RedisBenchmark {

    private static final long TIMEOUT_SECONDS = 300;

    /** What one run printed: requests a second and latencies in milliseconds. */
    record Result(String command, double perSecond, double p50Millis, double p99Millis) {}

    private final String program;
    private final String host;
    private final int port;

    private RedisBenchmark(String program, String host, int port) {
        this.program = program;
        this.host = host;
        this.port = port;
    }

    /** The program on the PATH, or null when there is none. */
    static RedisBenchmark find(String host, int port) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, "redis-benchmark");
            if (Files.isExecutable(p)) {
                return new RedisBenchmark(p.toString(), host, port);
            }
        }
        return null;
    }

    /** The command line that {@link #run} starts, for the table's notes. */
    List<String> commandLine(int clients, int requests, int keySpace, List<String> command) {
        List<String> args = new ArrayList<>(List.of(
                program,
                "-h",
                host,
                "-p",
                Integer.toString(port),
                "--csv",
                "-c",
                Integer.toString(clients),
                "-n",
                Integer.toString(requests),
                "-P",
                "1"));
        if (keySpace > 0) {
            args.add("-r");
            args.add(Integer.toString(keySpace));
        }
        args.addAll(command);
        return args;
    }

    /**
     * Runs {@code command} {@code requests} times from {@code clients} connections, one request at a time each;
     * {@code __rand_int__} in it becomes a number below {@code keySpace} (when positive).
     */
    Result run(int clients, int requests, int keySpace, List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(commandLine(clients, requests, keySpace, command))
                .redirectErrorStream(true)
                .start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                lines.add(line);
            }
        }
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("redis-benchmark did not finish within " + TIMEOUT_SECONDS + " s");
        }
        // "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms",...
        for (String line : lines) {
            if (line.startsWith("\"test\"") || !line.startsWith("\"")) {
                continue;
            }
            // the test's name may hold commas, never '","': count the figures from the end
            String[] cells = line.split("\",\"");
            int n = cells.length;
            if (n >= 8) {
                return new Result(
                        String.join(" ", command), number(cells[n - 7]), number(cells[n - 4]), number(cells[n - 2]));
            }
        }
        throw new IllegalStateException("redis-benchmark printed no result (exit " + p.exitValue() + "): " + lines);
    }

    private static double number(String cell) {
        return Double.parseDouble(cell.replace("\"", ""));
    }
}
