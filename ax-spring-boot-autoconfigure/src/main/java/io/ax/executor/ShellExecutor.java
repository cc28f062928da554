package io.ax.executor;

import io.ax.core.AxContext;
import io.ax.core.AxException;
import io.ax.core.AxExecutor;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.InvalidTaskException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * Runs {@link #TYPE SHELL} tasks: the task's target names a script inside {@link ShellSettings#scriptDir()}, run
 * directly (never through a shell string) with the arguments {@code args[0]}, {@code args[1]}, ... (or {@code
 * args.0}, ...: a YAML list under {@code args}) of its parameters and the extra environment {@code env.NAME}; both may use {@code ${instanceId}}, {@code ${attempt}},
 * {@code ${scheduledTime}}, {@code ${taskName}} and any parameter as {@code ${name}}.
 *
 * <p><b>Security.</b> Disabled unless {@link ShellSettings#enabled()}: every SHELL task is then refused when it is
 * defined. A target that escapes the script directory, a symbolic link that leads out of it, a missing or
 * non-executable file is refused when the task is defined, and checked again before each run. The script inherits
 * only the environment variables named in {@link ShellSettings#environment()}, plus {@code AX_TASK_NAME}, {@code
 * AX_INSTANCE_ID}, {@code AX_ATTEMPT} and {@code AX_SCHEDULED_TIME}. Its standard input is closed.
 *
 * <p><b>Outcome.</b> Exit code 0 is a success, any other a failure naming the code. The first {@link
 * ShellSettings#maxOutput()} bytes of stdout and of stderr are recorded on the instance; the rest is counted and
 * dropped. When the task's timeout interrupts the worker, the script and every process it started are killed.
 * Thread-safe; output is read by threads named {@code ax-shell-output-N}, at most two per running script.
 */
public final class ShellExecutor implements AxExecutor, AutoCloseable {

    /** The task type this executor runs. */
    public static final String TYPE = "SHELL";

    /** Running scripts at once (each needs two output readers); beyond it an attempt fails at once. */
    static final int MAX_RUNNING = 64;

    /** How long the outputs may stay open after the script exited (a background process it left holds them). */
    private static final long OUTPUT_GRACE_MILLIS = 2_000;

    private static final long KILL_AWAIT_MILLIS = 5_000;

    private final ShellSettings settings;
    private final ShellScripts scripts;
    private final Path workingDir;
    private final Map<String, String> inherited;
    private final ThreadPoolExecutor readers;

    /** @param environment this process's environment (the allow-list picks from it) */
    public ShellExecutor(ShellSettings settings, Map<String, String> environment) {
        this.settings = settings;
        if (settings.enabled()) {
            this.scripts = new ShellScripts(settings.scriptDir());
            this.workingDir = settings.workingDir() == null ? scripts.dir() : settings.workingDir();
            if (!Files.isDirectory(workingDir)) {
                throw new IllegalArgumentException("ax.shell.working-dir '" + workingDir + "' is not a directory");
            }
        } else {
            this.scripts = null;
            this.workingDir = null;
        }
        Map<String, String> allowed = new HashMap<>();
        for (String name : settings.environment()) {
            String value = environment.get(name);
            if (value != null) {
                allowed.put(name, value);
            }
        }
        this.inherited = Map.copyOf(allowed);
        AtomicInteger counter = new AtomicInteger();
        this.readers = new ThreadPoolExecutor(0, 2 * MAX_RUNNING, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, "ax-shell-output-" + counter.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** With this process's environment. */
    public ShellExecutor(ShellSettings settings) {
        this(settings, System.getenv());
    }

    @Override
    public boolean matchTaskType(String type) {
        return TYPE.equals(type);
    }

    @Override
    public void check(AxTask task) {
        if (!settings.enabled()) {
            throw new InvalidTaskException(task.name(), "type", disabled());
        }
        try {
            scripts.resolve(task.target());
        } catch (IllegalArgumentException e) {
            throw new InvalidTaskException(task.name(), "target", e.getMessage());
        }
        ShellCommand.of(task);
    }

    @Override
    public AxResult execute(AxTask task, AxContext context) throws Exception {
        if (!settings.enabled()) {
            throw new AxException(disabled());
        }
        Path script;
        try {
            script = scripts.resolve(task.target()); // again: the file may have changed since the task was defined
        } catch (IllegalArgumentException e) {
            throw new AxException(e.getMessage());
        }
        ShellCommand command = ShellCommand.of(task);
        Map<String, String> values = Templates.values(task, context);
        UnaryOperator<String> raw = UnaryOperator.identity();
        List<String> argv = new ArrayList<>();
        argv.add(script.toString());
        command.args().forEach(a -> argv.add(Templates.render(a, values, raw)));
        ProcessBuilder builder = new ProcessBuilder(argv).directory(workingDir.toFile());
        Map<String, String> env = builder.environment();
        env.clear();
        env.putAll(inherited);
        env.put("AX_TASK_NAME", context.taskName());
        env.put("AX_INSTANCE_ID", context.instanceId());
        env.put("AX_ATTEMPT", Integer.toString(context.attempt()));
        env.put("AX_SCHEDULED_TIME", context.scheduledTime().toString());
        command.env().forEach((name, value) -> env.put(name, Templates.render(value, values, raw)));
        return run(builder);
    }

    private AxResult run(ProcessBuilder builder) throws Exception {
        long start = System.nanoTime();
        Process process = builder.start();
        try {
            process.getOutputStream().close(); // no input: a script that reads stdin sees its end at once
            Future<BoundedCapture> out;
            Future<BoundedCapture> err;
            try {
                out = readers.submit(() -> drain(process.getInputStream()));
                err = readers.submit(() -> drain(process.getErrorStream()));
            } catch (RejectedExecutionException e) {
                throw new AxException("more than " + MAX_RUNNING + " scripts run at once on this node");
            }
            int exit = process.waitFor();
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            String note =
                    "exit " + exit + " in " + millis + " ms; " + output("stdout", out) + "; " + output("stderr", err);
            return exit == 0 ? AxResult.success(note) : AxResult.failure("exit code " + exit + ": " + note);
        } catch (InterruptedException e) {
            // the task's timeout: the script and everything it started go, then the interrupt stands again
            ProcessTree.kill(process.toHandle(), KILL_AWAIT_MILLIS);
            Thread.currentThread().interrupt();
            throw e;
        } catch (RuntimeException | Error e) {
            ProcessTree.kill(process.toHandle(), KILL_AWAIT_MILLIS);
            throw e;
        }
    }

    private BoundedCapture drain(InputStream in) throws IOException {
        BoundedCapture capture = new BoundedCapture(settings.maxOutput());
        byte[] buffer = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                capture.add(buffer, 0, n);
            }
        }
        return capture;
    }

    private static String output(String name, Future<BoundedCapture> reading) throws InterruptedException {
        try {
            return reading.get(OUTPUT_GRACE_MILLIS, TimeUnit.MILLISECONDS).describe(name);
        } catch (TimeoutException e) {
            return name + " (still open after the script exited: a process it left in the background holds it)";
        } catch (ExecutionException e) {
            return name + " (unreadable: " + e.getCause() + ")";
        }
    }

    private static String disabled() {
        return "SHELL tasks are disabled; set ax.shell.enabled=true and ax.shell.script-dir to run scripts";
    }

    /** Stops the output readers. */
    @Override
    public void close() {
        readers.shutdownNow();
    }
}
