package io.ax.faults.check;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Judges a run from its database alone: reads the history once, runs every check over it, and measures what the
 * report shows beside them. A violation in the lost window of a failover to a lagging standby that AX reported is
 * taken out of the count and listed apart ({@link FailoverFindings}). Use it on a database whose nodes have stopped.
 */
public final class Checker {

    private static final List<Check> CHECKS = List.of(
            new TrailCheck(),
            new DoubleStartCheck(),
            new AttemptCheck(),
            new TakeoverCheck(),
            new OverlapCheck(),
            new LimitCheck(),
            new RateCheck(),
            new EarlyFireCheck(),
            new DelayedCheck(),
            new OrderCheck(),
            new LedgerCheck(),
            new WorkflowCheck(),
            new EpochCheck(),
            new FinalityCheck(),
            new LostWorkCheck());

    private Checker() {}

    public static Findings check(JdbcTemplate db) {
        History history = History.load(db);
        Evidence evidence = Evidence.of(history);
        Map<String, List<Violation>> violations = new LinkedHashMap<>();
        Map<String, String> promises = new LinkedHashMap<>();
        for (Check c : CHECKS) {
            violations.put(c.name(), c.check(evidence));
            promises.put(c.name(), c.promise());
        }
        FailoverFindings failovers =
                FailoverFindings.judge(history, new LostWindows(history, evidence.judgement()), violations);
        return new Findings(evidence, violations, promises, Metrics.of(evidence), failovers);
    }
}
