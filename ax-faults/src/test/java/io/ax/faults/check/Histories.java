package io.ax.faults.check;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A history written by hand. */
final class Histories {

    private static final long S = 1_000_000;

    final Map<String, History.Instance> instances = new LinkedHashMap<>();
    private final Map<String, List<History.Step>> trails = new HashMap<>();
    final List<History.Run> runs = new ArrayList<>();
    private final Map<String, List<History.Beat>> beats = new HashMap<>();
    private final Map<Long, History.Process> processes = new HashMap<>();
    private final List<History.Booking> ledger = new ArrayList<>();
    private final List<History.Limit> limits = new ArrayList<>();
    private final List<History.Fault> faults = new ArrayList<>();
    private final List<History.Failover> failovers = new ArrayList<>();
    private final List<History.LostRow> lost = new ArrayList<>();
    private final List<History.Said> said = new ArrayList<>();
    /** What the clients were told was accepted; null until a test says (every lost row counts as accepted). */
    private java.util.Set<String> acked;

    private long ids;

    /**
     * A failover of the pair: the standby's last replayed commit at {@code replayedUntil}, the primary stopped at
     * {@code killed}, the standby promoted at {@code promoted}.
     */
    Histories failover(long id, String kind, double replayedUntil, double killed, double promoted) {
        failovers.add(new History.Failover(
                id, kind, (long) (replayedUntil * S), (long) (killed * S), (long) (promoted * S), null, null));
        return this;
    }

    /** A row the old timeline of failover {@code failoverId} had and the new one lacks. */
    Histories lost(long failoverId, String what, String instanceId, String detail, double at) {
        lost.add(new History.LostRow(failoverId, what, instanceId, detail, (long) (at * S)));
        return this;
    }

    /** Work a node answered a client with: {@code delayed:<instance>} or {@code order:<id>}. */
    Histories acked(String... what) {
        if (acked == null) {
            acked = new java.util.HashSet<>();
        }
        acked.addAll(List.of(what));
        return this;
    }

    /** An ERROR of {@code node} saying its store went back, naming {@code instanceIds}. */
    Histories said(String node, double at, String... instanceIds) {
        said.add(new History.Said("log", node, (long) (at * S), "store went back", java.util.Set.of(instanceIds)));
        return this;
    }

    /** A limit of {@code task}, as its nodes record it. */
    Histories limit(String task, String key, int permits) {
        limits.add(new History.Limit(task, key, permits));
        return this;
    }

    /** A rate of {@code task}, as its nodes record it. */
    Histories limit(String task, String key, int permits, Duration window) {
        limits.add(new History.Limit(task, key, permits, window));
        return this;
    }

    /** A fault the runner injected into {@code target} from {@code from} to {@code to}. */
    Histories fault(String kind, String target, double from, double to) {
        faults.add(new History.Fault(++ids, kind, target, "", 0, (long) (from * S), (long) (to * S)));
        return this;
    }

    /** A delayed instance with its key (or none), in {@code state}. */
    Histories delayed(String id, String task, double due, String key, String state) {
        instances.put(id, new History.Instance(id, task, "DELAYED", state, 1, (long) (due * S), key));
        return this;
    }

    /** An instance of the sample's ledger job, in {@code state} after {@code attempt}. */
    Histories booking(String id, String state, int attempt) {
        instances.put(id, new History.Instance(id, "book", "SERIES", state, attempt, 10 * S, "@" + id));
        return this;
    }

    /** A ledger row, as attempt {@code attempt} of {@code id} committed it. */
    Histories booked(String id, int attempt) {
        ledger.add(new History.Booking(id, attempt, "n1"));
        return this;
    }

    Histories series(String id, String task, double due) {
        instances.put(id, new History.Instance(id, task, "SERIES", "SUCCESS", 1, (long) (due * S), "@" + due));
        return this;
    }

    /** A plain trail: created, scheduled, dispatched and run on {@code node} from {@code start}, then ended. */
    Histories trail(String id, double start, String node, int attempt, String end, double endAt) {
        return step(id, null, "CREATED", "n1", 0, start - 1)
                .step(id, "CREATED", "SCHEDULED", "n1", 0, start - 1)
                .step(id, "SCHEDULED", "DISPATCHED", "n1", attempt, start)
                .step(id, "DISPATCHED", "RUNNING", node, attempt, start)
                .step(id, "RUNNING", end, node, attempt, endAt);
    }

    /** Scheduled and assigned by the leader n1, run on {@code node} from {@code start}, taken over by n1. */
    Histories takenOver(String id, String node, double start, double takenAt, String reason) {
        return step(id, null, "CREATED", "n1", 0, start - 1)
                .step(id, "CREATED", "SCHEDULED", "n1", 0, start - 1)
                .step(id, "SCHEDULED", "DISPATCHED", "n1", 1, start)
                .step(id, "DISPATCHED", "RUNNING", node, 1, start)
                .step(id, "RUNNING", "FAILED", "n1", 1, takenAt, reason);
    }

    Histories step(String id, String from, String to, String node, int attempt, double at) {
        return step(id, from, to, node, attempt, at, "");
    }

    Histories step(String id, String from, String to, String node, int attempt, double at, String reason) {
        trails.computeIfAbsent(id, k -> new ArrayList<>())
                .add(new History.Step(++ids, id, from, to, node, attempt, reason, (long) (at * S)));
        return this;
    }

    Histories run(String node, long pid, String id, int attempt, double start, double end) {
        runs.add(new History.Run(
                ++ids,
                node,
                pid,
                instances.get(id).task(),
                id,
                attempt,
                (long) (start * S),
                (long) (end * S),
                "success"));
        return this;
    }

    Histories process(String node, long pid, double start, Double exit) {
        processes.put(
                pid,
                new History.Process(
                        node, pid, "real", (long) (start * S), exit == null ? null : (long) (exit * S), "kill -9"));
        return this;
    }

    Histories beats(String node, double... at) {
        for (double t : at) {
            beats.computeIfAbsent(node, k -> new ArrayList<>()).add(new History.Beat(node, 'U', (long) (t * S)));
        }
        return this;
    }

    Evidence evidence() {
        runs.sort(java.util.Comparator.comparingLong(History.Run::startUs));
        History h = new History(
                instances,
                trails,
                runs,
                faults,
                processes,
                List.of(),
                beats,
                List.of(),
                ledger,
                List.of(),
                0,
                Map.of("lease_ms", "2500", "mark_us", Long.toString(100 * S)),
                limits,
                new History.Failovers(failovers, lost, said, acked));
        return Evidence.of(h);
    }
}
