package io.ax.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ax.faults.cluster.FakeTime;
import io.ax.faults.db.RunDatabase;
import io.ax.faults.store.PgPair;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The short fault run of CI: the fixed plan (each kind of fault once, some at once, about two minutes of faults, one
 * of them a failover to a caught-up standby) on three nodes of the sample application with Redis, their store a
 * PostgreSQL primary and standby the run starts itself, its witness a database of its own on the machine's server,
 * which is dropped when the run passes. Fails on any violation; the report, with each violation's evidence, goes to
 * the build's output and to {@code target/ci-run/report.md}. Skipped, saying why, when PostgreSQL (the server or its
 * binaries), redis-server or libfaketime is missing; with {@code AX_TEST_SERVICES=required} (what {@code .ci/run}
 * sets) that fails instead.
 */
class FaultRunCiTest {

    private static final String HOST = "127.0.0.1";
    private static final int PORT = 5432;

    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void theCiPlanBreaksNoPromiseOfAx() throws Exception {
        String database = "axfaults_ci_" + ProcessHandle.current().pid();
        RunDatabase db = new RunDatabase(HOST, PORT, database, "postgres", "");
        require(
                db.unreachable() == null,
                "PostgreSQL at " + HOST + ":" + PORT + " is not reachable (" + db.unreachable() + ")");
        require(FakeTime.library() != null, "libfaketime is not installed (apt-get install -y faketime)");
        require(PgPair.unavailable() == null, "no PostgreSQL pair can be started: " + PgPair.unavailable());
        Path sampleJar = Path.of(System.getProperty("ax.faults.sample-jar", "../ax-sample-app/target/missing.jar"));
        if (!Files.isReadable(sampleJar)) {
            throw new IllegalStateException("the sample's executable jar " + sampleJar + " is missing: build it in the"
                    + " same reactor, e.g. ./mvnw -pl ax-faults -am verify");
        }
        RunSettings settings = RunSettings.from(Options.parse(
                List.of(
                        "--seed=1",
                        "--schedule=ci",
                        "--redis",
                        "--pair=async",
                        "--nodes=3",
                        "--database=" + database,
                        "--pg-host=" + HOST,
                        "--pg-port=" + PORT,
                        "--sample-jar=" + sampleJar,
                        "--work-dir=" + System.getProperty("ax.faults.work-dir", "target/ci-run")),
                RunSettings.OPTIONS));

        ByteArrayOutputStream report = new ByteArrayOutputStream();
        int status =
                FaultRunner.run(settings, new PrintStream(new Tee(report, System.out), true, StandardCharsets.UTF_8));
        String text = report.toString(StandardCharsets.UTF_8);
        Path saved = settings.workDir().resolve("report.md");
        Files.writeString(saved, text);

        if (status == 0) {
            db.drop();
        }
        assertEquals(
                true,
                nodeLogsSay(settings.workDir(), "AX engine stopped on node"),
                "no node's log tells that its engine stopped, though the run stops every node with SIGTERM: what AX"
                        + " logs while it stops is lost (a logger that does not write to the application's log)");
        assertEquals(
                0,
                status,
                () -> "the CI fault run broke promises of AX: "
                        + text.lines()
                                .filter(l -> l.startsWith("| **violations**"))
                                .findFirst()
                                .orElse("(no table)")
                        + "; every violation with its evidence is in the report above and in " + saved.toAbsolutePath()
                        + "; the run's database " + database + " is kept: java -jar ax-faults/target/ax-faults.jar"
                        + " --check-only --database=" + database);
    }

    /** Whether a node's log in {@code workDir} has a line with {@code text}. */
    private static boolean nodeLogsSay(Path workDir, String text) throws java.io.IOException {
        try (var logs = Files.list(workDir)) {
            for (Path log : logs.filter(p -> p.getFileName().toString().matches("n\\d+-\\d+\\.log"))
                    .toList()) {
                try (var lines = Files.lines(log, StandardCharsets.UTF_8)) {
                    if (lines.anyMatch(l -> l.contains(text))) {
                        return true;
                    }
                } catch (java.io.UncheckedIOException notText) {
                    // a line the platform charset cannot read: the other files still count
                }
            }
        }
        return false;
    }

    /** Skips the test, or fails it when the services are required. */
    private static void require(boolean met, String what) {
        if (met) {
            return;
        }
        if ("required".equalsIgnoreCase(System.getenv("AX_TEST_SERVICES"))) {
            throw new IllegalStateException(what + " and AX_TEST_SERVICES=required");
        }
        Assumptions.abort(what + "; set AX_TEST_SERVICES=required to make this a failure");
    }

    /** The report goes to the build's output and into the failure message. */
    private static final class Tee extends OutputStream {

        private final OutputStream a;
        private final OutputStream b;

        Tee(OutputStream a, OutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public void write(int c) throws java.io.IOException {
            a.write(c);
            b.write(c);
        }

        @Override
        public void write(byte[] bytes, int off, int len) throws java.io.IOException {
            a.write(bytes, off, len);
            b.write(bytes, off, len);
        }

        @Override
        public void flush() throws java.io.IOException {
            a.flush();
            b.flush();
        }
    }
}
