package io.ax.executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.ax.core.AuditEntry;
import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.InvalidTaskException;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.PoolSettings;
import io.ax.core.store.InMemoryInstanceStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** SHELL tasks run by the engine: real scripts, written by the test into a temporary directory. */
class ShellExecutorTest {

    private static final Duration BOUND = Duration.ofSeconds(20);

    @TempDir
    Path root;

    private Path scripts;
    private final InMemoryInstanceStore store = new InMemoryInstanceStore();
    private ShellExecutor executor;
    private AxEngine engine;

    @BeforeEach
    void writeScripts() throws IOException {
        scripts = Files.createDirectory(root.resolve("scripts"));
        script("args.sh", "for a in \"$@\"; do printf '<%s>\\n' \"$a\"; done");
        script("fail.sh", "echo 'it broke' >&2\nexit 3");
        script("loud.sh", "head -c 200000 /dev/zero | tr '\\0' 'a'\nhead -c 70000 /dev/zero | tr '\\0' 'e' >&2");
        script(
                "env.sh",
                "echo \"home=$HOME secret=$SECRET_VAR id=$AX_INSTANCE_ID attempt=$AX_ATTEMPT greeting=$GREETING\"");
        script("pwd.sh", "pwd");
        // a child that starts a grandchild, each writing its pid, all sleeping far beyond the timeout
        script("tree.sh", """
                sh -c 'sleep 300 & echo $! > "$1/grandchild.pid"; wait' sh "$1" &
                echo $! > "$1/child.pid"
                echo $$ > "$1/parent.pid"
                sleep 300 &
                echo $! > "$1/sleeper.pid"
                wait""");
        executor = executor(64 * 1024);
    }

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.stop();
        }
        executor.close();
    }

    @Test
    void eachArgumentReachesTheScriptWholeAndUninterpreted() throws IOException {
        Path marker = root.resolve("pwned");
        Map<String, String> params = new LinkedHashMap<>();
        List<String> args = List.of(
                "two words", "it's \"quoted\"", "$(touch " + marker + ")", "; rm -rf /", "*", "", "${instanceId}");
        for (int i = 0; i < args.size(); i++) {
            params.put("args[" + i + "]", args.get(i));
        }
        String id = run(task("args", "args.sh").params(params).build());

        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        assertThat(last(id).reason())
                .contains("<two words>\n<it's \"quoted\">\n<$(touch " + marker + ")>\n<; rm -rf />\n<*>\n<>\n<" + id
                        + ">\n");
        assertThat(marker).doesNotExist();
    }

    @Test
    void aNonZeroExitFailsWithTheExitCodeAndTheRecordedStderr() {
        String id = run(task("fail", "fail.sh").build());

        await().atMost(BOUND).until(() -> state(id) == InstanceState.DEAD);
        assertThat(store.auditTrail(id))
                .filteredOn(e -> e.to() == InstanceState.FAILED)
                .singleElement()
                .satisfies(e -> assertThat(e.reason()).contains("exit code 3").contains("stderr (9 bytes): it broke"));
    }

    @Test
    void outputBeyondTheBoundIsCountedAndDropped() {
        executor.close();
        executor = executor(1000);
        String id = run(task("loud", "loud.sh").build());

        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        String note = last(id).reason();
        assertThat(note).contains("stdout (200000 bytes, first 1000 kept): " + "a".repeat(1000) + ";");
        assertThat(note).doesNotContain("a".repeat(1001));
        assertThat(note).endsWith("stderr (70000 bytes, first 1000 kept): " + "e".repeat(1000));
    }

    @Test
    void aLoudFailureIsRecordedWholeButLoggedShort() throws IOException {
        script("loud-fail.sh", "head -c 5000 /dev/zero | tr '\\0' 'a'\nexit 1");
        Logger engineLog = (Logger) LoggerFactory.getLogger(AxEngine.class);
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        logs.start();
        engineLog.addAppender(logs);
        try {
            String id = run(task("loud-fail", "loud-fail.sh").build());

            await().atMost(BOUND).until(() -> state(id) == InstanceState.DEAD);
            assertThat(store.auditTrail(id))
                    .filteredOn(e -> e.to() == InstanceState.FAILED)
                    .singleElement()
                    .satisfies(e -> assertThat(e.reason()).contains("a".repeat(5000)));
            List<ILoggingEvent> seen;
            synchronized (logs) { // engine threads may still be logging: a copy taken under the appender's lock
                seen = List.copyOf(logs.list);
            }
            assertThat(seen)
                    .filteredOn(e -> e.getFormattedMessage().contains("loud-fail"))
                    .isNotEmpty()
                    .allSatisfy(e -> assertThat(e.getFormattedMessage())
                            .hasSizeLessThan(1000)
                            .doesNotContain("a".repeat(501)));
        } finally {
            engineLog.detachAppender(logs);
        }
    }

    @Test
    void theTimeoutKillsTheScriptItsChildrenAndItsGrandchildren() throws Exception {
        Path pids = Files.createDirectory(root.resolve("pids"));
        String id = run(task("tree", "tree.sh")
                .params(Map.of("args[0]", pids.toString()))
                .timeout(Duration.ofSeconds(2))
                .build());

        await().atMost(BOUND).until(() -> state(id) == InstanceState.DEAD);
        assertThat(store.auditTrail(id)).extracting(AuditEntry::to).contains(InstanceState.TIMEOUT);
        List<Long> started = List.of("parent", "child", "grandchild", "sleeper").stream()
                .map(name -> readPid(pids.resolve(name + ".pid")))
                .toList();
        await().atMost(BOUND)
                .untilAsserted(() -> assertThat(started)
                        .as("no process of the tree survives")
                        .noneMatch(pid -> ProcessHandle.of(pid)
                                .map(ProcessHandle::isAlive)
                                .orElse(false)));
    }

    @Test
    void theScriptSeesOnlyTheAllowedEnvironmentAndTheInstance() {
        executor.close();
        executor = new ShellExecutor(
                new ShellSettings(true, scripts, null, List.of("HOME"), 4096),
                Map.of("HOME", "/home/ax", "SECRET_VAR", "leak"));
        String id = run(task("env", "env.sh")
                .params(Map.of("env.GREETING", "hi ${attempt}"))
                .build());

        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        assertThat(last(id).reason()).contains("home=/home/ax secret= id=" + id + " attempt=1 greeting=hi 1");
    }

    @Test
    void theWorkingDirectoryIsTheScriptDirectoryUnlessConfigured() throws IOException {
        Path work = Files.createDirectory(root.resolve("work"));
        String inScripts = run(task("pwd", "pwd.sh").build());
        await().atMost(BOUND).until(() -> state(inScripts) == InstanceState.SUCCESS);
        assertThat(last(inScripts).reason()).contains(": " + scripts.toRealPath() + "\n");

        ShellExecutor configured = new ShellExecutor(new ShellSettings(true, scripts, work, List.of(), 4096), Map.of());
        try {
            var result = configured.execute(task("pwd", "pwd.sh").build(), new SampleContext("pwd", Map.of()));
            assertThat(result.message()).contains(": " + work.toRealPath() + "\n");
        } catch (Exception e) {
            throw new AssertionError(e);
        } finally {
            configured.close();
        }
    }

    @Test
    void scriptsOutsideTheDirectoryOrNotRunnableAreRefusedWhenDefined() throws IOException {
        Path outside = root.resolve("outside.sh");
        Files.writeString(outside, "#!/bin/sh\necho out\n");
        Files.setPosixFilePermissions(outside, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createSymbolicLink(scripts.resolve("link-out.sh"), outside);
        Files.createSymbolicLink(scripts.resolve("link-in.sh"), scripts.resolve("args.sh"));
        Path sub = Files.createDirectory(scripts.resolve("sub"));
        Files.createSymbolicLink(scripts.resolve("dir-out"), root);
        Path plain = scripts.resolve("plain.sh");
        Files.writeString(plain, "echo not executable\n");

        executor.check(task("ok", "link-in.sh").build());
        assertRefused("../outside.sh", "escapes ax.shell.script-dir");
        assertRefused("sub/../../outside.sh", "escapes ax.shell.script-dir");
        assertRefused(outside.toString(), "must be a path relative to ax.shell.script-dir");
        assertRefused("link-out.sh", "is a symbolic link out of ax.shell.script-dir");
        assertRefused("dir-out/outside.sh", "is a symbolic link out of ax.shell.script-dir");
        assertRefused("missing.sh", "does not exist");
        assertRefused("plain.sh", "is not executable");
        assertRefused("sub", "is not a regular file");
        assertRefused(".", "escapes ax.shell.script-dir");
        assertThat(sub).isDirectory();
    }

    @Test
    void aScriptReplacedByALinkOutAfterItsDefinitionDoesNotRun() throws Exception {
        Path outside = root.resolve("outside.sh");
        Files.writeString(outside, "#!/bin/sh\necho ran outside\n");
        Files.setPosixFilePermissions(outside, PosixFilePermissions.fromString("rwxr-xr-x"));
        AxTask task = task("swap", "pwd.sh").build();
        executor.check(task);
        Files.delete(scripts.resolve("pwd.sh"));
        Files.createSymbolicLink(scripts.resolve("pwd.sh"), outside);

        assertThatThrownBy(() -> executor.execute(task, new SampleContext("swap", Map.of())))
                .hasMessageContaining("symbolic link out of");
    }

    @Test
    void badArgumentsAreRefusedWhenDefined() {
        assertThatThrownBy(() -> executor.check(task("gap", "args.sh")
                        .params(Map.of("args[0]", "a", "args[2]", "c"))
                        .build()))
                .isInstanceOf(InvalidTaskException.class)
                .hasMessageContaining("attribute 'params.args[1]'")
                .hasMessageContaining("numbered from 0 without gaps");
        assertThatThrownBy(() -> executor.check(task("var", "args.sh")
                        .params(Map.of("args[0]", "${nope}"))
                        .build()))
                .hasMessageContaining("unknown variable ${nope}");
    }

    @Test
    void shellTasksAreRefusedUnlessEnabled() {
        ShellExecutor disabled = new ShellExecutor(ShellSettings.disabled(), Map.of());
        try {
            assertThatThrownBy(() -> disabled.check(task("any", "args.sh").build()))
                    .isInstanceOfSatisfying(
                            InvalidTaskException.class,
                            e -> assertThat(e.attribute()).isEqualTo("type"))
                    .hasMessageContaining("SHELL tasks are disabled; set ax.shell.enabled=true");
            assertThatThrownBy(
                            () -> disabled.execute(task("any", "args.sh").build(), new SampleContext("any", Map.of())))
                    .hasMessageContaining("SHELL tasks are disabled");
        } finally {
            disabled.close();
        }
    }

    // ---- helpers

    private ShellExecutor executor(int maxOutput) {
        return new ShellExecutor(new ShellSettings(true, scripts, null, List.of("PATH"), maxOutput));
    }

    private void assertRefused(String target, String reason) {
        assertThatThrownBy(() -> executor.check(task("bad", target).build()))
                .as(target)
                .isInstanceOfSatisfying(
                        InvalidTaskException.class,
                        e -> assertThat(e.attribute()).isEqualTo("target"))
                .hasMessageContaining(reason);
    }

    private void script(String name, String body) throws IOException {
        Path file = scripts.resolve(name);
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private static long readPid(Path file) {
        await().atMost(BOUND)
                .until(() -> Files.exists(file) && !Files.readString(file).isBlank());
        try {
            return Long.parseLong(Files.readString(file).trim());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private AxTask.Builder task(String name, String script) {
        return AxTask.builder(name).type(ShellExecutor.TYPE).target(script).timeout(Duration.ofSeconds(10));
    }

    private String run(AxTask task) {
        if (engine == null) {
            engine = AxEngine.builder()
                    .store(store)
                    .router(new ExecutorRouter(List.of(executor)))
                    .nodeId("node-shell")
                    .pools(Map.of(AxTask.DEFAULT_GROUP, new PoolSettings(4, 100)))
                    .shutdownAwait(Duration.ofSeconds(2))
                    .build();
            engine.register(task);
            engine.start();
        } else {
            engine.register(task);
        }
        return engine.triggerNow(task.name());
    }

    private InstanceState state(String id) {
        return engine.find(id).orElseThrow().instance().state();
    }

    private AuditEntry last(String id) {
        List<AuditEntry> trail = store.auditTrail(id);
        return trail.get(trail.size() - 1);
    }
}
