package io.ax.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.test.jdbc.TestDatabase;
import java.io.File;
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
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's Quick start, built as a newcomer builds it: its Java snippet compiled against the jars of this build
 * (this module's test class path: the starter's dependencies, web and Actuator), its {@code application.yml}
 * snippets as the application's configuration, run in a JVM of its own, on H2 and on PostgreSQL. It must start,
 * answer on {@code /actuator/ax} and in the health details, take a trigger once the writes are opened as the README
 * says, and run it.
 */
class QuickStartTest {

    private static final Duration BOUND = Duration.ofSeconds(90);
    private static final String SECTION = "## Quick start";

    @TempDir
    Path app;

    private Process process;
    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void stop() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void theQuickStartAppRunsOnH2AsWritten() throws Exception {
        build(snippets().yaml.get(0)); // the Actuator settings
        run("--spring.datasource.url=jdbc:h2:mem:quick-start;DB_CLOSE_DELAY=-1");
    }

    @Test
    void theQuickStartAppRunsOnPostgresqlAsWritten() throws Exception {
        TestDatabase pg = TestDatabase.POSTGRESQL;
        pg.dataSource(); // skips (or fails, when required) without PostgreSQL
        pg.dropTables("axqs_");
        Snippets s = snippets();
        assertThat(s.yaml).as("the Actuator and the PostgreSQL settings").hasSizeGreaterThanOrEqualTo(2);
        build(s.yaml.get(0) + "\n" + s.yaml.get(1)); // as written; this machine's database is given below
        run(
                "--spring.datasource.url=" + pg.url(),
                "--spring.datasource.username=" + pg.user(),
                "--spring.datasource.password=" + pg.password(),
                "--ax.jdbc.table-prefix=axqs_");
        assertThat(log()).contains("AX tables (prefix 'axqs_') migrated: V1 ax schema");
        assertThat(log()).contains("store jdbc (PostgreSQL at ");
    }

    /** The README's Java and YAML snippets of the Quick start, in their order. */
    private record Snippets(String java, List<String> yaml) {}

    private static Snippets snippets() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        int start = readme.indexOf(SECTION);
        assertThat(start).as("the README's Quick start").isNotNegative();
        int end = readme.indexOf("\n## ", start + SECTION.length());
        String section = readme.substring(start, end);
        String java = null;
        List<String> yaml = new ArrayList<>();
        Matcher block = Pattern.compile("```(\\w*)\\n(.*?)```", Pattern.DOTALL).matcher(section);
        while (block.find()) {
            if (block.group(1).equals("java") && java == null) {
                java = block.group(2);
            } else if (block.group(1).equals("yaml")) {
                yaml.add(block.group(2));
            }
        }
        assertThat(java).as("the Quick start's Java").isNotNull();
        assertThat(yaml).as("the Quick start's application.yml").isNotEmpty();
        return new Snippets(java, yaml);
    }

    /** Compiles the snippet in an application of its own, with the YAML as its application.yml. */
    private void build(String yaml) throws IOException {
        Snippets s = snippets();
        Path source = app.resolve("src").resolve("quickstart").resolve("QuickStartApp.java");
        Files.createDirectories(source.getParent());
        // what a newcomer's IDE adds: the package, the imports and the application class
        Files.writeString(
                source,
                "package quickstart;\n\n"
                        + "import io.ax.core.AxContext;\n"
                        + "import io.ax.core.AxJob;\n"
                        + "import org.springframework.boot.SpringApplication;\n"
                        + "import org.springframework.boot.autoconfigure.SpringBootApplication;\n"
                        + "import org.springframework.stereotype.Component;\n\n"
                        + "@SpringBootApplication\n"
                        + "public class QuickStartApp {\n"
                        + "    public static void main(String[] args) {\n"
                        + "        SpringApplication.run(QuickStartApp.class, args);\n"
                        + "    }\n"
                        + "}\n\n"
                        + s.java);
        Path classes = Files.createDirectories(app.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int exit = javac.run(
                null,
                null,
                null,
                "-d",
                classes.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "-parameters",
                source.toString());
        assertThat(exit).as("the Quick start's Java compiles").isZero();
        Files.writeString(classes.resolve("application.yml"), yaml);
    }

    /** Runs the application, checks what the Quick start promises, opens the writes and triggers its task. */
    private void run(String... database) throws Exception {
        int port = freePort();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-cp",
                app.resolve("classes") + File.pathSeparator + System.getProperty("java.class.path"),
                "quickstart.QuickStartApp",
                "--server.port=" + port,
                "--server.address=127.0.0.1",
                // the README's way to open the endpoint's writes (to be guarded by the application's security)
                "--management.endpoint.ax.access=unrestricted",
                "--ax.redis.enabled=false"));
        command.addAll(List.of(database));
        process = new ProcessBuilder(command)
                .directory(app.toFile())
                .redirectErrorStream(true)
                .redirectOutput(app.resolve("app.log").toFile())
                .start();
        String base = "http://127.0.0.1:" + port;
        await().atMost(BOUND).pollInterval(Duration.ofMillis(250)).until(() -> {
            assertThat(process.isAlive())
                    .as("the app runs; its output:\n" + log())
                    .isTrue();
            return log().contains("Started QuickStartApp");
        });
        assertThat(log()).doesNotContain("AX does not know");

        HttpResponse<String> tasks = get(base + "/actuator/ax/tasks");
        assertThat(tasks.statusCode()).isEqualTo(200);
        assertThat(tasks.body()).contains("reports.refresh");
        assertThat(get(base + "/actuator/health").body()).contains("\"ax\"").contains("\"details\"");

        HttpResponse<String> trigger = http.send(
                HttpRequest.newBuilder(URI.create(base + "/actuator/ax/tasks/reports.refresh/trigger"))
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(trigger.statusCode()).as(trigger.body()).isEqualTo(200);
        String id = trigger.body().replaceAll(".*\"instanceId\"\\s*:\\s*\"([^\"]+)\".*", "$1");
        await().atMost(BOUND)
                .pollInterval(Duration.ofMillis(250))
                .until(() -> get(base + "/actuator/ax/instances/" + id).body().contains("\"SUCCESS\""));
    }

    private HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private String log() throws IOException {
        Path log = app.resolve("app.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
