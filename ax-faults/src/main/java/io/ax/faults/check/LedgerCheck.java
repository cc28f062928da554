package io.ax.faults.check;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The sample's transactional job ({@code book}) writes its ledger row inside its attempt's transaction, which also
 * records the SUCCESS: a SUCCESS instance has exactly one row, by the attempt that succeeded; any other instance has
 * none (a crash, a cut, a freeze, a timeout or a takeover rolled its attempts' rows back); no row is without its
 * instance. Read in the history's one snapshot, so an attempt still open at the mark shows neither.
 */
final class LedgerCheck implements Check {

    /** The task of the sample's ledger job. */
    static final String TASK = "book";

    @Override
    public String name() {
        return "ledger";
    }

    @Override
    public String promise() {
        return "a transactional handler's writes are stored exactly when its instance is SUCCESS, once";
    }

    @Override
    public List<Violation> check(Evidence e) {
        History h = e.history();
        Map<String, List<History.Booking>> byInstance = new HashMap<>();
        for (History.Booking b : h.ledger()) {
            byInstance.computeIfAbsent(b.instanceId(), k -> new ArrayList<>()).add(b);
        }
        List<Violation> out = new ArrayList<>();
        for (History.Instance in : h.instances().values()) {
            if (!TASK.equals(in.task())) {
                continue;
            }
            List<History.Booking> rows = byInstance.remove(in.id());
            List<History.Booking> found = rows == null ? List.of() : rows;
            boolean success = "SUCCESS".equals(in.state());
            if (success && (found.size() != 1 || found.get(0).attempt() != in.attempt())) {
                out.add(new Violation(
                        name(),
                        in.id(),
                        "SUCCESS on attempt " + in.attempt() + " but its ledger rows are " + describe(found),
                        in.scheduledUs()));
            } else if (!success && !found.isEmpty()) {
                out.add(new Violation(
                        name(),
                        in.id(),
                        in.state() + " (attempt " + in.attempt() + ") but the ledger holds " + describe(found),
                        in.scheduledUs()));
            }
        }
        for (Map.Entry<String, List<History.Booking>> orphan : byInstance.entrySet()) {
            out.add(new Violation(
                    name(),
                    orphan.getKey(),
                    "the ledger holds " + describe(orphan.getValue()) + " for an instance that does not exist",
                    e.judgement().markUs()));
        }
        return out;
    }

    private static String describe(List<History.Booking> rows) {
        if (rows.isEmpty()) {
            return "none";
        }
        List<String> each = new ArrayList<>();
        for (History.Booking b : rows) {
            each.add("attempt " + b.attempt() + " on " + b.node());
        }
        return each.toString();
    }
}
