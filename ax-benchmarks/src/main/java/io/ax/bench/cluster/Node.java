package io.ax.bench.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The parent's handle on one node process ({@link ClusterNode}, or another benchmark's process that speaks the same
 * line protocol): sends it commands and waits, bounded, for its answers. A thread of its own ({@code node-out-<id>})
 * reads the node's stdout; its stderr goes to {@link #log()}. One caller at a time talks to a node.
 */
public final class Node {

    private static final String EOF = "@EOF";

    private final String id;
    private final Process process;
    private final Path log;
    private final Writer commands;
    private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();

    Node(String id, Process process, Path log) {
        this.id = id;
        this.process = process;
        this.log = log;
        this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(this::read, "node-out-" + id);
        reader.setDaemon(true);
        reader.start();
    }

    String id() {
        return id;
    }

    Path log() {
        return log;
    }

    Process process() {
        return process;
    }

    boolean alive() {
        return process.isAlive();
    }

    private void read() {
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith("@")) {
                    answers.add(line);
                } else {
                    System.err.println("[" + id + "] " + line);
                }
            }
        } catch (IOException closed) {
            // the process ended
        }
        answers.add(EOF);
    }

    /** Waits for the node's {@code @READY} line; fails with the node's log file named when it does not come. */
    public void awaitReady(Duration timeout) throws InterruptedException {
        String line = next(timeout);
        if (!line.startsWith("@READY")) {
            throw new IllegalStateException("node " + id + " did not start (" + line + "); see " + log);
        }
    }

    /** Sends one command without waiting for its answer. */
    public void send(String command) throws IOException {
        synchronized (commands) {
            commands.write(command + "\n");
            commands.flush();
        }
    }

    /** Sends one command and returns the answer's {@code key=value} pairs. */
    public Map<String, String> ask(String command, Duration timeout) throws IOException, InterruptedException {
        send(command);
        return answerTo(command, timeout);
    }

    /** Waits for the answer to {@code command}, sent earlier with {@link #send}, and returns its pairs. */
    public Map<String, String> answerTo(String command, Duration timeout) throws InterruptedException {
        String line = next(timeout);
        String expected = "@" + (command.contains(" ") ? command.substring(0, command.indexOf(' ')) : command);
        if (command.equals("STOP")) {
            expected = "@STOPPED";
        }
        if (!line.startsWith(expected)) {
            throw new IllegalStateException(
                    "node " + id + " answered '" + abbreviate(line) + "' to " + command + "; see " + log);
        }
        return pairs(line);
    }

    private String next(Duration timeout) throws InterruptedException {
        String line = answers.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (line == null) {
            throw new IllegalStateException("node " + id + " did not answer within " + timeout + "; see " + log);
        }
        if (line.equals(EOF)) {
            answers.add(EOF); // for the next caller too
            throw new IllegalStateException("node " + id + " has exited; see " + log);
        }
        return line;
    }

    /** SIGKILL (no shutdown hook, no graceful stop); waits up to {@code timeout} for the process to be gone. */
    boolean kill(Duration timeout) throws InterruptedException {
        process.destroyForcibly();
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static Map<String, String> pairs(String line) {
        Map<String, String> out = new HashMap<>();
        for (String part : line.split(" ")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                out.put(part.substring(0, eq), part.substring(eq + 1));
            }
        }
        return out;
    }

    private static String abbreviate(String line) {
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }
}
