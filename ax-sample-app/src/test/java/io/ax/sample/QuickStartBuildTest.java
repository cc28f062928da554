package io.ax.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import io.ax.test.jdbc.TestDatabase;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * README's Quick start built as a newcomer builds it, against the jars this build just made: a Maven project of its
 * own whose dependencies are README's dependency snippets, with README's Java class and {@code application.yml},
 * packaged by this repository's Maven wrapper into an executable jar and started with {@code java -jar}. It must
 * answer on {@code /actuator/health} and {@code /actuator/ax} and run README's task, without a database (the snippets
 * alone), on H2 and on PostgreSQL.
 *
 * <p>The AX artifacts reach the nested build through a local repository of its own, in a temporary folder, holding
 * the poms of this repository and the jars of their {@code target/} folders (so this test runs after {@code package},
 * as in {@code ./mvnw verify}); Maven 3.9's chained local repository finds everything else read-only in the outer
 * build's repository (its {@code maven.repo.local}, passed through). The nested build is online, as a newcomer's first
 * build is: what the outer build has not needed yet (on an empty machine, the Spring Boot plugin's own dependencies,
 * which the outer build resolves only when it packages the sample, after this test) is downloaded into the temporary
 * repository. The in-memory case proves it every time: its outer repository is shown without that plugin and its
 * dependencies. Nothing is installed. The outputs stay in {@code target/quick-start-build/}, printed when a case
 * fails.
 */
class QuickStartBuildTest {

    private static final Duration BUILD_BOUND = Duration.ofMinutes(3);
    private static final Duration BOUND = Duration.ofSeconds(90);
    private static final Path LOGS = Path.of("target", "quick-start-build").toAbsolutePath();
    private static final String PREFIX = "axqsb_";
    private static final String QUICK_JVM = "-XX:TieredStopAtLevel=1";

    /**
     * What {@code spring-boot-maven-plugin} needs beyond the application's own dependencies: on an empty machine the
     * outer build has none of it when this test runs.
     */
    private static final List<Path> PACKAGING_PLUGIN = List.of(
            Path.of("org/springframework/boot/spring-boot-maven-plugin"),
            Path.of("org/springframework/boot/spring-boot-loader-tools"),
            Path.of("org/springframework/boot/spring-boot-buildpack-platform"));

    @TempDir
    Path work;

    private final List<Path> logs = new ArrayList<>();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private Process process;
    private TestDatabase database;

    @RegisterExtension
    final TestWatcher printOutputsOnFailure = new TestWatcher() {
        @Override
        public void testFailed(ExtensionContext context, Throwable cause) {
            for (Path log : logs) {
                try {
                    System.out.println("===== " + log + "\n" + (Files.exists(log) ? Files.readString(log) : ""));
                } catch (IOException e) {
                    System.out.println("===== " + log + " cannot be read: " + e);
                }
            }
        }
    };

    @AfterEach
    void stop() throws InterruptedException {
        if (process != null) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
        if (database != null) {
            database.dropTables(PREFIX);
        }
    }

    @Test
    void theSnippetsAloneMakeAnAppThatRunsItsTaskInMemory() throws Exception {
        QuickStartReadme readme = QuickStartReadme.read(QuickStartProject.ROOT.resolve("README.md"));
        // the outer repository without the packaging plugin: the nested build must resolve it, as on an empty machine
        Path outer = QuickStartProject.repositoryWithout(
                work.resolve("outer-without-plugin"), QuickStartProject.userRepository(), PACKAGING_PLUGIN);
        Path jar = build("in-memory", readme, readme.dependencies(), readme.yaml(), outer);
        for (Path artifact : PACKAGING_PLUGIN) {
            assertThat(work.resolve("repository").resolve(artifact))
                    .as("the nested build resolved " + artifact + " itself")
                    .isDirectory();
        }
        JsonNode ax = runs("in-memory", readme, jar);
        assertThat(ax.path("storeKind").asString()).isEqualTo("in-memory");
        assertThat(output("in-memory"))
                .contains("store in-memory")
                .contains("Task '" + readme.taskName()
                        + "' is declared PERSISTENT, but AX keeps its instances in memory");
    }

    @Test
    void withTheJdbcStarterAndH2sDriverItRunsItsTaskOnH2() throws Exception {
        QuickStartReadme readme = QuickStartReadme.read(QuickStartProject.ROOT.resolve("README.md"));
        // no URL: with H2's driver and no spring.datasource.url, Spring Boot makes an embedded database
        Path jar = build(
                "h2",
                readme,
                readme.dependencies() + readme.h2Dependencies(),
                readme.yaml(),
                QuickStartProject.userRepository());
        JsonNode ax = runs("h2", readme, jar);
        assertThat(ax.path("store").asString()).startsWith("jdbc (H2 at jdbc:h2:mem:");
        assertThat(output("h2")).contains("AX tables (prefix 'ax_') migrated: V1 ax schema");
    }

    @Test
    void withReadmesPostgresqlLinesItRunsItsTaskOnPostgresql() throws Exception {
        TestDatabase pg = TestDatabase.POSTGRESQL;
        pg.dataSource(); // skips (or fails, when required) without PostgreSQL
        pg.dropTables(PREFIX);
        database = pg;
        QuickStartReadme readme = QuickStartReadme.read(QuickStartProject.ROOT.resolve("README.md"));
        Path jar = build(
                "postgresql",
                readme,
                readme.dependencies() + readme.databaseDependencies(),
                readme.yaml() + "\n" + readme.databaseYaml(),
                QuickStartProject.userRepository());
        // README's YAML as written; this machine's database, and tables of this test's own, are given here
        JsonNode ax = runs(
                "postgresql",
                readme,
                jar,
                "--spring.datasource.url=" + pg.url(),
                "--spring.datasource.username=" + pg.user(),
                "--spring.datasource.password=" + pg.password(),
                "--ax.jdbc.table-prefix=" + PREFIX);
        assertThat(ax.path("store").asString()).startsWith("jdbc (PostgreSQL at ");
        assertThat(output("postgresql")).contains("AX tables (prefix '" + PREFIX + "') migrated: V1 ax schema");
    }

    /**
     * Writes the project, builds it with the project's own Maven wrapper, online, with {@code outer} as the read-only
     * tail of its local repository, and returns its executable jar, checked to hold this build's AX jars.
     */
    private Path build(String name, QuickStartReadme readme, String dependencies, String yaml, Path outer)
            throws Exception {
        long started = System.nanoTime();
        Path repository = Files.createDirectories(work.resolve("repository"));
        Map<String, Path> axJars = QuickStartProject.axRepository(repository, readme);
        Path app = QuickStartProject.write(work.resolve("app"), readme, dependencies, yaml);
        Path log = logFile(name + "-build");
        List<String> command = List.of(
                QuickStartProject.mavenWrapper().toString(),
                "-B",
                "-ntp",
                "-q",
                "-Dmaven.repo.local=" + repository,
                "-Dmaven.repo.local.tail=" + outer,
                "package");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(app.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().remove("MAVEN_ARGS"); // the outer build's arguments are not the newcomer's
        // the client compiler only: a short JVM starts two to three times faster on a busy machine
        builder.environment().merge("MAVEN_OPTS", QUICK_JVM, (given, quick) -> given + " " + quick);
        process = builder.start();
        if (!process.waitFor(BUILD_BOUND.toMillis(), TimeUnit.MILLISECONDS)) {
            fail("the Quick start's build did not end within " + BUILD_BOUND + "; its output: " + log);
        }
        assertThat(process.exitValue())
                .as("the Quick start builds; its output:\n" + Files.readString(log))
                .isZero();
        process = null;

        Path jar = app.resolve("target").resolve("quick-start-1.0.jar");
        assertThat(jar).as("the executable jar").exists();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (Map.Entry<String, Path> ax : axJars.entrySet()) {
                var entry = zip.getEntry("BOOT-INF/lib/" + ax.getValue().getFileName());
                assertThat(entry).as("the app holds " + ax.getKey()).isNotNull();
                assertThat(zip.getInputStream(entry).readAllBytes())
                        .as("the app holds the jar it was given: " + ax.getValue())
                        .isEqualTo(Files.readAllBytes(ax.getValue()));
            }
        }
        System.out.printf("Quick start (%s): built in %d ms%n", name, elapsedMillis(started));
        return jar;
    }

    /**
     * Starts the jar on a free port, with the endpoint's writes opened as README says, and checks what the Quick start
     * promises: health with the component {@code ax} and its details, the task on {@code /actuator/ax/tasks} with its
     * next fires, and a fire of it that succeeds. Returns {@code /actuator/ax}.
     */
    private JsonNode runs(String name, QuickStartReadme readme, Path jar, String... more) throws Exception {
        long started = System.nanoTime();
        int port = freePort();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                QUICK_JVM,
                "-jar",
                jar.toString(),
                "--server.port=" + port,
                "--server.address=127.0.0.1",
                "--management.endpoint.ax.access=unrestricted"));
        command.addAll(List.of(more));
        Path log = logFile(name);
        process = new ProcessBuilder(command)
                .directory(jar.getParent().getParent().toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        String base = "http://127.0.0.1:" + port;
        await().atMost(BOUND).pollInterval(Duration.ofMillis(250)).until(() -> {
            assertThat(process.isAlive()).as("the app runs; its output: " + log).isTrue();
            try {
                return get(base + "/actuator/health").statusCode() == 200;
            } catch (IOException notYetListening) {
                return false;
            }
        });
        long answered = elapsedMillis(started);
        assertThat(output(name)).doesNotContain("AX does not know");

        JsonNode health = json(get(base + "/actuator/health"));
        assertThat(health.path("status").asString()).isEqualTo("UP");
        assertThat(health.path("components").path("ax").path("status").asString())
                .isEqualTo("UP");
        assertThat(health.path("components").path("ax").path("details").isObject())
                .as("the health details of 'ax': " + health)
                .isTrue();

        String task = readme.taskName();
        JsonNode tasks = json(get(base + "/actuator/ax/tasks")).path("tasks");
        JsonNode ours = null;
        for (JsonNode t : tasks) {
            ours = t.path("name").asString().equals(task) ? t : ours;
        }
        assertThat(ours).as("task " + task + " in " + tasks).isNotNull();
        assertThat(ours.path("nextFireTimes").isEmpty())
                .as("its next fires: " + ours)
                .isFalse();

        HttpResponse<String> trigger = http.send(
                HttpRequest.newBuilder(URI.create(base + "/actuator/ax/tasks/" + task + "/trigger"))
                        .timeout(Duration.ofSeconds(10))
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(trigger.statusCode()).as(trigger.body()).isEqualTo(200);
        String id = json(trigger).path("instanceId").asString();
        assertThat(id).as(trigger.body()).isNotBlank();
        await().atMost(BOUND)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> json(get(base + "/actuator/ax/instances/" + id))
                        .path("state")
                        .asString()
                        .equals("SUCCESS"));
        System.out.printf(
                "Quick start (%s): answered after %d ms, its task succeeded after %d ms%n",
                name, answered, elapsedMillis(started));
        return json(get(base + "/actuator/ax"));
    }

    /** The file that keeps the output of {@code name}, printed when the test fails. */
    private Path logFile(String name) throws IOException {
        Path log = Files.createDirectories(LOGS).resolve(name + ".log");
        if (!logs.contains(log)) {
            logs.add(log);
        }
        return log;
    }

    private String output(String name) throws IOException {
        return Files.readString(logFile(name));
    }

    private HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response) {
        assertThat(response.statusCode())
                .as(response.uri() + ": " + response.body())
                .isEqualTo(200);
        return JsonMapper.shared().readTree(response.body());
    }

    private static long elapsedMillis(long since) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
