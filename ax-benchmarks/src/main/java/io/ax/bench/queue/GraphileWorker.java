package io.ax.bench.queue;

import io.ax.bench.Options;
import io.ax.bench.Scenario;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * graphile-worker, the peer of the {@code queue} scenario: a pinned version installed from the npm registry with the
 * machine's npm into a folder of its own ({@code --graphile-dir}), the first time the scenario runs there, beside the
 * benchmark's process script ({@code graphile-peer.cjs}, shipped in this jar). Nothing of it is fetched by a build or
 * a test.
 */
final class GraphileWorker {

    static final String VERSION = "0.17.3";
    private static final String SCRIPT = "graphile-peer.cjs";
    private static final long INSTALL_MINUTES = 10;
    private static final Pattern VERSION_FIELD = Pattern.compile("\"version\"\\s*:\\s*\"([^\"]+)\"");

    private final Path dir;

    private GraphileWorker(Path dir) {
        this.dir = dir;
    }

    /** The default folder: {@code ~/.cache/ax-benchmarks/graphile-worker-<version>}. */
    static Path defaultDir() {
        return Path.of(System.getProperty("user.home"), ".cache", "ax-benchmarks", "graphile-worker-" + VERSION);
    }

    /**
     * Installs the pinned version into {@code dir} unless it is there, and puts the process script beside it.
     *
     * @throws Scenario.Refused when Node.js or npm is missing, the install fails, or another version is there
     */
    static GraphileWorker install(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path installed = dir.resolve("node_modules/graphile-worker/package.json");
        if (!Files.isRegularFile(installed)) {
            requireTool("node");
            Files.writeString(
                    dir.resolve("package.json"),
                    "{\"name\": \"ax-bench-graphile\", \"private\": true}\n",
                    StandardCharsets.UTF_8);
            Path log = dir.resolve("npm-install.log");
            System.err.printf("queue: installing graphile-worker %s with npm into %s%n", VERSION, dir);
            Process npm = new ProcessBuilder(
                            "npm", "install", "--no-audit", "--no-fund", "--save-exact", "graphile-worker@" + VERSION)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            if (!npm.waitFor(INSTALL_MINUTES, TimeUnit.MINUTES)) {
                npm.destroyForcibly();
                throw new Scenario.Refused("npm did not install graphile-worker " + VERSION + " within "
                        + INSTALL_MINUTES + " minutes; see " + log);
            }
            if (npm.exitValue() != 0 || !Files.isRegularFile(installed)) {
                throw new Scenario.Refused("npm could not install graphile-worker " + VERSION + " (exit status "
                        + npm.exitValue() + "); see " + log);
            }
        }
        Matcher version = VERSION_FIELD.matcher(Files.readString(installed, StandardCharsets.UTF_8));
        if (!version.find() || !version.group(1).equals(VERSION)) {
            throw new Scenario.Refused("graphile-worker in " + dir + " is not version " + VERSION
                    + ": give the scenario another folder with --graphile-dir, or empty this one");
        }
        try (var in = GraphileWorker.class.getClassLoader().getResourceAsStream("queue/" + SCRIPT)) {
            if (in == null) {
                throw new IOException("queue/" + SCRIPT + " is not on the class path");
            }
            Files.write(dir.resolve(SCRIPT), in.readAllBytes());
        }
        return new GraphileWorker(dir);
    }

    private static void requireTool(String tool) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(tool, "--version")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0) {
                return;
            }
        } catch (IOException missing) {
            // refused below
        }
        throw new Scenario.Refused("the queue scenario runs graphile-worker on Node.js: install Node.js 18 or later"
                + " with npm, so that 'node' and 'npm' are on the PATH");
    }

    /** The command that starts one worker process on {@code schema}. */
    List<String> command(Options options, String schema, int concurrency) {
        List<String> command = new ArrayList<>();
        command.add("node");
        command.add(dir.resolve(SCRIPT).toString());
        command.add("--url=" + connectionString(options));
        command.add("--schema=" + schema);
        command.add("--concurrency=" + concurrency);
        command.add("--max-pool=" + (concurrency + 1));
        command.add("--local-queue=" + options.getInt("local-queue", 500, 500));
        return command;
    }

    /** The scenario's JDBC URL as a libpq connection string, its user and password included. */
    static String connectionString(Options options) {
        String jdbc = options.jdbcUrl();
        if (!jdbc.startsWith("jdbc:postgresql://")) {
            throw new Scenario.Refused(
                    "the queue scenario needs a PostgreSQL URL (jdbc:postgresql://host:port/db), got " + jdbc);
        }
        URI uri = URI.create(jdbc.substring("jdbc:".length()));
        String password = options.jdbcPassword();
        String user = URLEncoder.encode(options.jdbcUser(), StandardCharsets.UTF_8)
                + (password.isEmpty() ? "" : ":" + URLEncoder.encode(password, StandardCharsets.UTF_8));
        return "postgres://" + user + "@" + uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : "")
                + uri.getPath();
    }
}
