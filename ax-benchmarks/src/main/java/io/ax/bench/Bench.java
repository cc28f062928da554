package io.ax.bench;

import java.lang.management.ManagementFactory;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Runs one scenario and prints its table: {@code java -jar ax-benchmarks/target/ax-benchmarks.jar <scenario>
 * [--quick] [--key=value ...]}.
 */
public final class Bench {

    /** Scenario name -> implementing class; the classes live in sub-packages, one per scenario. */
    private static final Map<String, String> SCENARIOS = new LinkedHashMap<>();

    static {
        SCENARIOS.put("timers", "io.ax.bench.timers.TimersScenario");
        SCENARIOS.put("cron", "io.ax.bench.cron.CronScenario");
        SCENARIOS.put("recurring", "io.ax.bench.recurring.RecurringScenario");
        SCENARIOS.put("burst", "io.ax.bench.burst.BurstScenario");
        SCENARIOS.put("delayed", "io.ax.bench.delayed.DelayedScenario");
        SCENARIOS.put("cluster", "io.ax.bench.cluster.ClusterScenario");
        SCENARIOS.put("locks", "io.ax.bench.locks.LocksScenario");
        SCENARIOS.put("cost", "io.ax.bench.cluster.CostScenario");
        SCENARIOS.put("wakeup", "io.ax.bench.wakeup.WakeUpScenario");
        SCENARIOS.put("http", "io.ax.bench.http.HttpScenario");
        SCENARIOS.put("store-failover", "io.ax.bench.failover.StoreFailoverScenario");
        SCENARIOS.put("queue", "io.ax.bench.queue.QueueScenario");
    }

    private Bench() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || !SCENARIOS.containsKey(args[0])) {
            System.err.println("usage: java -jar ax-benchmarks.jar <" + String.join("|", SCENARIOS.keySet())
                    + "> [--quick] [--key=value ...]");
            System.exit(2);
        }
        Options options = Options.parse(Arrays.asList(args).subList(1, args.length));
        Scenario scenario = (Scenario)
                Class.forName(SCENARIOS.get(args[0])).getDeclaredConstructor().newInstance();
        long start = System.nanoTime();
        ResultTable table;
        try {
            table = scenario.run(options);
        } catch (Scenario.Refused refused) {
            System.err.println(args[0] + ": " + refused.getMessage());
            System.exit(2);
            return;
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.println();
        System.out.println(table.toMarkdown());
        System.out.printf(
                Locale.ROOT,
                "%s, %d cores, %s %s, %s; command: java -jar ax-benchmarks.jar %s; %.0f s%n",
                LocalDate.now(),
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.vm.name"),
                System.getProperty("java.version"),
                ManagementFactory.getRuntimeMXBean().getInputArguments(),
                String.join(" ", args),
                seconds);
        System.exit(table.failed() ? 1 : 0); // a run whose checks failed must fail a script that runs it
    }
}
