package io.ax.faults;

import io.ax.faults.check.Findings;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.TreeSet;

/**
 * A Jepsen-style fault run of AX: {@code java -jar ax-faults/target/ax-faults.jar --seed=N --minutes=M --nodes=3
 * [--redis] [--schedule=ci]}. Starts replicas of the sample application on PostgreSQL, each through its own fault
 * proxies, drives traffic into them, injects random mixed faults, lets the cluster settle, and checks AX's promises
 * from the database alone. Prints a table and every violation; the exit status is 1 when there is one, 2 when the
 * run could not be made. See the module's README.
 */
public final class FaultRunner {

    private FaultRunner() {}

    public static void main(String[] args) {
        int status;
        try {
            Options options = Options.parse(Arrays.asList(args), RunSettings.OPTIONS);
            if (options.flag("help")) {
                System.out.println("usage: java -jar ax-faults.jar [--seed=N] [--minutes=M] [--nodes=3] [--redis]"
                        + " [--schedule=random|ci] [--faults=kind,...] [--check-only] ...; options: --"
                        + String.join(", --", new TreeSet<>(RunSettings.OPTIONS)) + " (see ax-faults/README.md)");
                System.exit(0);
            }
            status = run(RunSettings.from(options), System.out);
        } catch (IllegalArgumentException | Unavailable e) {
            System.err.println("ax-faults: " + e.getMessage());
            status = 2;
        } catch (Exception e) {
            System.err.println("ax-faults: the run could not be made: " + e);
            e.printStackTrace();
            status = 2;
        }
        System.exit(status);
    }

    /**
     * Makes one run (or only checks the database, with {@code --check-only}) and prints its report.
     *
     * @return 0 without violations, 1 with some
     */
    static int run(RunSettings settings, PrintStream out) throws Exception {
        long start = System.nanoTime();
        Campaign campaign = new Campaign(settings);
        Findings findings;
        Campaign.Outcome outcome = null;
        if (settings.checkOnly()) {
            findings = campaign.checkOnly();
        } else {
            outcome = campaign.run();
            findings = outcome.findings();
        }
        String repeat = findings.history().setting("command", settings.command());
        String title = "AX fault run, seed " + findings.history().setting("seed", "?") + ": "
                + findings.history().setting("nodes", "?") + " nodes"
                + ("true".equals(findings.history().setting("redis", "false"))
                        ? ("true".equals(findings.history().setting("sentinel", "false"))
                                ? " with Redis Sentinel"
                                : " with Redis")
                        : "")
                + (findings.history().setting("pair", "").isEmpty()
                        ? ""
                        : " on a PostgreSQL pair (" + findings.history().setting("pair", "") + ")")
                + (settings.checkOnly() ? " (checked again)" : "");
        RunReport.print(out, title, findings, outcome, Duration.ofNanos(System.nanoTime() - start), repeat);
        return findings.violationCount() == 0 ? 0 : 1;
    }
}
