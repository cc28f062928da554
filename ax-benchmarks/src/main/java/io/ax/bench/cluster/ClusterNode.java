package io.ax.bench.cluster;

import io.ax.bench.Options;
import io.ax.bench.db.Logging;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The main class of a node JVM: builds one AX or db-scheduler node ({@code --system=ax|db-scheduler}) with the
 * load's tasks ({@code --load=burst|recurring}), starts it, prints {@code @READY ...} and then answers the parent's
 * commands, one line each on stdin, with one line on stdout that starts with {@code @}:
 *
 * <ul>
 *   <li>{@code COUNT}: executions so far;
 *   <li>{@code CUT}: a measured window starts (lateness and CPU counted from now);
 *   <li>{@code REPORT}: executions, early starts, CPU seconds, store calls and the lateness histogram since the
 *       cut;
 *   <li>{@code VIEW}: how this node sees its cluster;
 *   <li>{@code KEYS <file>}: writes the key of every execution so far to the file;
 *   <li>{@code STOP}: stops the node and exits.
 * </ul>
 *
 * When the parent goes away (stdin closes) the node halts at once, so no node outlives a benchmark that died. Logs
 * (AX at WARN, its cluster membership at INFO) go to stderr, which the parent sends to a file per node.
 */
public final class ClusterNode {

    private ClusterNode() {}

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(List.of(args));
        System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
        System.setProperty("org.slf4j.simpleLogger.dateTimeFormat", "HH:mm:ss.SSS");
        Logging.configure(options);
        System.setProperty("org.slf4j.simpleLogger.log.io.ax.core.cluster", "info");
        ExecutionLog log = new ExecutionLog(options.getInt("work-ms", 0, 0));
        NodeSystem node;
        try {
            node = options.get("system", "").equals("ax")
                    ? AxNode.start(options, log)
                    : DbSchedulerNode.start(options, log);
        } catch (RuntimeException e) {
            e.printStackTrace();
            reply("@FAILED " + e.toString().replace('\n', ' '));
            Runtime.getRuntime().halt(1);
            return;
        }
        reply(String.format(
                Locale.ROOT,
                "@READY node=%s pid=%d",
                options.get("node-id", "?"),
                ProcessHandle.current().pid()));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String command = line.strip();
            try {
                answer(command, node, log);
            } catch (Exception e) {
                e.printStackTrace();
                reply("@ERROR " + e.toString().replace('\n', ' '));
            }
        }
        // the parent is gone: nothing to report to, and no node may outlive it
        Runtime.getRuntime().halt(2);
    }

    private static void answer(String command, NodeSystem node, ExecutionLog log) throws Exception {
        switch (command.contains(" ") ? command.substring(0, command.indexOf(' ')) : command) {
            case "COUNT" -> reply("@COUNT executions=" + log.executions());
            case "CUT" -> {
                log.cut();
                node.storeCalls();
                reply("@CUT executions=" + log.executions());
            }
            case "REPORT" ->
                reply(String.format(
                        Locale.ROOT,
                        "@REPORT executions=%d early=%d cpu=%.3f store=%s lateness=%s",
                        log.executions(),
                        log.early(),
                        log.cpuSinceCut(),
                        node.storeCalls(),
                        log.latenessSinceCut()));
            case "VIEW" -> reply("@VIEW " + node.view());
            case "KEYS" -> reply("@KEYS count=" + log.writeKeys(Path.of(command.substring(command.indexOf(' ') + 1))));
            case "STOP" -> {
                node.stop();
                reply("@STOPPED executions=" + log.executions());
                System.exit(0);
            }
            default -> reply("@ERROR unknown command '" + command + "'");
        }
    }

    private static void reply(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
