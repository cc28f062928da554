package io.ax.faults.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The PostgreSQL programs the pair runs ({@code /usr/lib/postgresql/15/bin}, or {@code AX_FAULTS_PG_BIN}): {@code
 * initdb}, {@code pg_ctl}, {@code pg_basebackup} and {@code psql}, each bounded by a timeout and failing with its
 * output. {@code initdb} refuses root, so under root the server's own commands run as user {@code postgres} through
 * {@code runuser}. Thread-safe: it holds nothing that changes.
 */
final class PgCommands {

    static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final Path bin;
    private final Path root;
    private final boolean asPostgres;

    /** @param root the folder the commands run in, and the servers' socket folder */
    PgCommands(Path root) {
        this.bin = binaries();
        this.root = root;
        this.asPostgres = "root".equals(System.getProperty("user.name"));
    }

    /** Whether the pair's servers can be run here; the reason when not, else null. */
    static String unavailable() {
        Path bin = binaries();
        for (String program : new String[] {"initdb", "pg_ctl", "pg_basebackup", "psql", "postgres"}) {
            if (!Files.isExecutable(bin.resolve(program))) {
                return bin.resolve(program) + " is missing (apt-get install -y postgresql, or set AX_FAULTS_PG_BIN)";
            }
        }
        if ("root".equals(System.getProperty("user.name")) && !Files.isExecutable(Path.of("/usr/sbin/runuser"))) {
            return "running as root, the servers must run as user postgres, and runuser is missing";
        }
        return null;
    }

    /** Makes {@code root} the server user's, when the servers run as another user than this one. */
    void ownRoot() {
        if (asPostgres) {
            chownToPostgres(root);
        }
    }

    void initdb(Path dir) {
        run(
                true,
                List.of(
                        bin.resolve("initdb").toString(),
                        "-D",
                        dir.toString(),
                        "-U",
                        "postgres",
                        "--auth=trust",
                        "--no-sync",
                        "--no-instructions"));
    }

    /** A base backup of the server on {@code port} into {@code dir}, set up to stream from it ({@code -R}). */
    void basebackup(int port, Path dir) {
        run(
                true,
                List.of(
                        bin.resolve("pg_basebackup").toString(),
                        "-h",
                        "127.0.0.1",
                        "-p",
                        Integer.toString(port),
                        "-U",
                        "postgres",
                        "-D",
                        dir.toString(),
                        "-R",
                        "-X",
                        "stream",
                        "-c",
                        "fast",
                        "--no-sync"));
    }

    /** Runs SQL with {@code psql} on a port and returns its output, one line per row. */
    String psql(int port, String db, String sql) {
        return run(
                        false,
                        List.of(
                                bin.resolve("psql").toString(),
                                "-h",
                                "127.0.0.1",
                                "-p",
                                Integer.toString(port),
                                "-U",
                                "postgres",
                                "-d",
                                db,
                                "-X",
                                "-A",
                                "-t",
                                "-q",
                                "-v",
                                "ON_ERROR_STOP=1",
                                "-c",
                                sql))
                .strip();
    }

    void pgCtl(Path dataDir, String... args) {
        List<String> command = new ArrayList<>(List.of(bin.resolve("pg_ctl").toString(), "-D", dataDir.toString()));
        command.addAll(List.of(args));
        run(true, command);
    }

    void move(Path from, Path to) {
        run(true, List.of("mv", from.toString(), to.toString()));
    }

    static void appendConfig(Path dataDir, List<String> lines) {
        try {
            Files.writeString(
                    dataDir.resolve("postgresql.conf"),
                    String.join("\n", lines) + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot configure " + dataDir, e);
        }
    }

    /** Runs a command (as user postgres when asked and this is root) and returns its output; fails on exit != 0. */
    private String run(boolean asServerUser, List<String> command) {
        List<String> full = new ArrayList<>();
        if (asServerUser && asPostgres) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(command);
        try {
            Process process = new ProcessBuilder(full)
                    .redirectErrorStream(true)
                    .directory(root.toFile())
                    .start();
            process.getOutputStream().close();
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("timed out: " + String.join(" ", command));
            }
            String output = new String(out, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new IllegalStateException(
                        "exit " + process.exitValue() + " from " + String.join(" ", command) + ": " + output.strip());
            }
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command.get(0), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command.get(0), e);
        }
    }

    private static void chownToPostgres(Path path) {
        try {
            UserPrincipal postgres =
                    path.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("postgres");
            Files.setOwner(path, postgres);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot give " + path + " to user postgres (does the user exist?)", e);
        }
    }

    private static Path binaries() {
        String configured = System.getenv("AX_FAULTS_PG_BIN");
        return configured == null || configured.isBlank() ? Path.of("/usr/lib/postgresql/15/bin") : Path.of(configured);
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1", e);
        }
    }
}
