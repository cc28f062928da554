package io.ax.faults.check;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Everything the checker knows of a run, read from the database in one snapshot once the nodes have stopped: AX's
 * instances and audit trails, the runs the nodes recorded, the limits they apply, the orders, and the runner's
 * instrumentation (epochs, lease changes, heartbeats, node processes, faults, settings). Every time is microseconds
 * since the epoch on the database's clock, unless its name says otherwise. Immutable once loaded.
 */
public final class History {

    /** An instance row as it ended. */
    /** A row of the sample's ledger: written by attempt {@code attempt} of {@code instanceId}, in its transaction. */
    public record Booking(String instanceId, int attempt, String node) {}

    public record Instance(
            String id, String task, String origin, String state, int attempt, long scheduledUs, String key) {}

    /** An audit row: one transition, with the time the database wrote it. */
    public record Step(
            long id, String instanceId, String from, String to, String node, int attempt, String reason, long atUs) {}

    /** An attempt a node ran, as its recorder wrote it; {@code endUs} null when no end was recorded. */
    public record Run(
            long id,
            String node,
            long pid,
            String task,
            String instanceId,
            int attempt,
            long startUs,
            Long endUs,
            String outcome) {}

    /** A fault the runner injected; {@code endUs} null when it never ended (the run was cut short). */
    public record Fault(
            long id, String kind, String target, String detail, long monoStartMs, long startUs, Long endUs) {}

    /** A node process the runner started; {@code exitUs} null when it was never seen to exit. */
    public record Process(String node, long pid, String clock, long startUs, Long exitUs, String how) {}

    /** A change of the leader lease row. */
    public record LeaseChange(
            long id, String oldHolder, long oldEpoch, long oldRenewedUs, String holder, long epoch, long atUs) {}

    /**
     * A heartbeat (or registration, or removal: {@code op} I, U or D) of a node, at the heartbeat time it wrote (for a
     * removal, when it happened).
     */
    public record Beat(String node, char op, long atUs) {}

    /** An order of the sample shop. */
    public record Order(long id, String state, String closeInstance, long closesAtUs) {}

    /**
     * A cluster-wide limit of a task, as its nodes recorded it: {@code key} is {@code task:<name>}, {@code
     * group:<name>}, or {@code mutex:<template>} with the template unresolved ({@code ${key}}, {@code ${keyPrefix}}),
     * of which at most {@code permits} attempts hold one key at once, {@code window} null; or {@code rate:task:<name>},
     * of which at most {@code permits} attempts are claimed in any {@code window}.
     */
    public record Limit(String task, String key, int permits, Duration window) {

        /** A limit of attempts at once. */
        public Limit(String task, String key, int permits) {
            this(task, key, permits, null);
        }

        /** Whether it limits starts per window rather than attempts at once. */
        public boolean isRate() {
            return window != null;
        }
    }

    /** A write that lowered the epoch of an instance row. */
    public record EpochRegression(
            String instanceId,
            String fromState,
            String toState,
            long epoch,
            long highestBefore,
            long leaderEpoch,
            long atUs) {}

    /**
     * A failover of the run's pair: the commit time of the last transaction the promoted standby had replayed (the
     * old primary's later commits are lost), when the old primary was stopped and the new one took writes; for an old
     * primary that came back, from when to when it ran beside the new one (else null).
     */
    public record Failover(
            long id,
            String kind,
            long replayedUntilUs,
            long killedUs,
            long promotedUs,
            Long backFromUs,
            Long backToUs) {

        /** Whether the promoted standby had every acknowledged commit. */
        public boolean caughtUp() {
            return kind.equals("pg-failover");
        }
    }

    /**
     * What a failover's old timeline has and the new one does not: a {@code transition} (an audit row), an {@code
     * instance} or an {@code order}; {@code instanceId} is the instance it concerns (an order's close), or null.
     */
    public record LostRow(long failoverId, String what, String instanceId, String detail, long atUs) {}

    /**
     * What a node said of its store going back in time or changing: an ERROR of its log ({@code source} {@code log},
     * with the instances it named), the event the engine published ({@code event}, with every instance it listed),
     * or at the end of the run a store-regression metric above 0 ({@code metric}) or AX's health not UP ({@code
     * health}).
     */
    public record Said(String source, String node, long atUs, String line, java.util.Set<String> instanceIds) {

        /** Whether AX said it as it found it (an ERROR of the log, or the event): what the lost windows are judged by. */
        public boolean logged() {
            return source.equals("log") || source.equals("event");
        }
    }

    /**
     * The failovers of a run, what each lost, and what the nodes said of it; all empty in a run on one server.
     * {@code acknowledged} holds what the traffic's clients were told was accepted ({@code delayed:<instance>},
     * {@code order:<id>}); null for a run that did not record it, where every row counts as accepted.
     */
    public record Failovers(
            List<Failover> failovers, List<LostRow> lost, List<Said> said, java.util.Set<String> acknowledged) {

        public static final Failovers NONE = new Failovers(List.of(), List.of(), List.of());

        public Failovers(List<Failover> failovers, List<LostRow> lost, List<Said> said) {
            this(failovers, lost, said, null);
        }

        /**
         * Whether a client was told that the lost row's work was accepted: a delayed task's id, or an order's id, came
         * back in an answer. A commit whose answer the failover cut off never was.
         */
        public boolean acknowledged(LostRow row) {
            if (acknowledged == null) {
                return true;
            }
            if (row.what().equals("order")) {
                java.util.regex.Matcher m = ORDER.matcher(row.detail());
                return !m.find() || acknowledged.contains("order:" + m.group(1));
            }
            return row.instanceId() == null || acknowledged.contains("delayed:" + row.instanceId());
        }

        private static final java.util.regex.Pattern ORDER = java.util.regex.Pattern.compile("^order (\\d+) ");
    }

    private final Map<String, Instance> instances;
    private final Map<String, List<Step>> trails;
    private final Map<String, List<Run>> runs;
    private final List<Run> allRuns;
    private final List<Fault> faults;
    private final Map<Long, Process> processes;
    private final List<LeaseChange> leaseChanges;
    private final Map<String, List<Beat>> beats;
    private final List<Order> orders;
    private final List<Booking> ledger;
    private final List<EpochRegression> epochRegressions;
    private final long staleFencedWrites;
    private final Map<String, String> settings;
    private final List<Limit> limits;
    private final Failovers failovers;

    History(
            Map<String, Instance> instances,
            Map<String, List<Step>> trails,
            List<Run> allRuns,
            List<Fault> faults,
            Map<Long, Process> processes,
            List<LeaseChange> leaseChanges,
            Map<String, List<Beat>> beats,
            List<Order> orders,
            List<Booking> ledger,
            List<EpochRegression> epochRegressions,
            long staleFencedWrites,
            Map<String, String> settings,
            List<Limit> limits) {
        this(
                instances,
                trails,
                allRuns,
                faults,
                processes,
                leaseChanges,
                beats,
                orders,
                ledger,
                epochRegressions,
                staleFencedWrites,
                settings,
                limits,
                Failovers.NONE);
    }

    History(
            Map<String, Instance> instances,
            Map<String, List<Step>> trails,
            List<Run> allRuns,
            List<Fault> faults,
            Map<Long, Process> processes,
            List<LeaseChange> leaseChanges,
            Map<String, List<Beat>> beats,
            List<Order> orders,
            List<Booking> ledger,
            List<EpochRegression> epochRegressions,
            long staleFencedWrites,
            Map<String, String> settings,
            List<Limit> limits,
            Failovers failovers) {
        this.instances = instances;
        this.trails = trails;
        this.allRuns = allRuns;
        Map<String, List<Run>> byInstance = new HashMap<>();
        for (Run r : allRuns) {
            byInstance.computeIfAbsent(r.instanceId(), k -> new ArrayList<>()).add(r);
        }
        this.runs = byInstance;
        this.faults = faults;
        this.processes = processes;
        this.leaseChanges = leaseChanges;
        this.beats = beats;
        this.orders = orders;
        this.ledger = ledger;
        this.epochRegressions = epochRegressions;
        this.staleFencedWrites = staleFencedWrites;
        this.settings = settings;
        this.limits = limits;
        this.failovers = failovers;
    }

    private static final String US = "CAST(EXTRACT(EPOCH FROM %s) * 1000000 AS BIGINT)";

    private static String us(String column) {
        return String.format(US, column);
    }

    /** Reads the whole history, in one repeatable-read transaction so that every table shows the same moment. */
    public static History load(JdbcTemplate db) {
        return new org.springframework.transaction.support.TransactionTemplate(
                        new org.springframework.jdbc.datasource.DataSourceTransactionManager(db.getDataSource()))
                .execute(status -> {
                    db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
                    return read(db);
                });
    }

    private static History read(JdbcTemplate db) {
        Map<String, Instance> instances = new LinkedHashMap<>();
        db.query(
                "SELECT id, task_name, origin, state, attempt, scheduled_us, dedupe_key FROM ax_instance"
                        + " ORDER BY scheduled_us, id",
                rs -> {
                    instances.put(
                            rs.getString(1),
                            new Instance(
                                    rs.getString(1),
                                    rs.getString(2),
                                    rs.getString(3),
                                    rs.getString(4),
                                    rs.getInt(5),
                                    rs.getLong(6),
                                    rs.getString(7)));
                });
        Map<String, List<Step>> trails = new HashMap<>();
        db.query(
                "SELECT id, instance_id, from_state, to_state, node, attempt, reason, " + us("db_at")
                        + " FROM ax_audit ORDER BY id",
                rs -> {
                    Step s = new Step(
                            rs.getLong(1),
                            rs.getString(2),
                            rs.getString(3),
                            rs.getString(4),
                            rs.getString(5),
                            rs.getInt(6),
                            rs.getString(7),
                            rs.getLong(8));
                    trails.computeIfAbsent(s.instanceId(), k -> new ArrayList<>())
                            .add(s);
                });
        List<Run> runs = db.query(
                "SELECT id, node, pid, task_name, instance_id, attempt, " + us("started_at") + ", " + us("ended_at")
                        + ", outcome FROM faults_run ORDER BY started_at, id",
                (rs, n) -> new Run(
                        rs.getLong(1),
                        rs.getString(2),
                        rs.getLong(3),
                        rs.getString(4),
                        rs.getString(5),
                        rs.getInt(6),
                        rs.getLong(7),
                        (Long) rs.getObject(8),
                        rs.getString(9)));
        List<Fault> faults = db.query(
                "SELECT id, kind, target, detail, mono_start_ms, " + us("db_start") + ", " + us("db_end")
                        + " FROM faults_fault ORDER BY id",
                (rs, n) -> new Fault(
                        rs.getLong(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getLong(5),
                        rs.getLong(6),
                        (Long) rs.getObject(7)));
        Map<Long, Process> processes = new HashMap<>();
        db.query(
                "SELECT node, pid, clock, " + us("started_at") + ", " + us("exited_at")
                        + ", exit_how FROM faults_process ORDER BY id",
                rs -> {
                    processes.put(
                            rs.getLong(2),
                            new Process(
                                    rs.getString(1),
                                    rs.getLong(2),
                                    rs.getString(3),
                                    rs.getLong(4),
                                    (Long) rs.getObject(5),
                                    rs.getString(6)));
                });
        List<LeaseChange> lease = db.query(
                "SELECT id, old_holder, old_epoch, old_renewed_us, holder, epoch, " + us("db_at")
                        + " FROM faults_leader ORDER BY id",
                (rs, n) -> new LeaseChange(
                        rs.getLong(1),
                        rs.getString(2),
                        rs.getLong(3),
                        rs.getLong(4),
                        rs.getString(5),
                        rs.getLong(6),
                        rs.getLong(7)));
        Map<String, List<Beat>> beats = new HashMap<>();
        // a heartbeat counts at the time it wrote (the database's clock, as the leader compares it); a removal at
        // the time it happened
        db.query(
                "SELECT node_id, op, CASE WHEN op = 'D' THEN " + us("db_at")
                        + " ELSE heartbeat_us END FROM faults_heartbeat ORDER BY id",
                rs -> {
                    beats.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                            .add(new Beat(rs.getString(1), rs.getString(2).charAt(0), rs.getLong(3)));
                });
        List<Order> orders = ordersOf(db);
        List<Booking> ledger = ledgerOf(db);
        List<EpochRegression> regressions = db.query(
                "SELECT instance_id, old_state, new_state, new_epoch, seen, leader_epoch, at_us FROM ("
                        + " SELECT instance_id, old_state, new_state, new_epoch, leader_epoch, " + us("db_at")
                        + " AS at_us, GREATEST(COALESCE(old_epoch, 0), COALESCE(MAX(GREATEST(COALESCE(old_epoch, 0),"
                        + " COALESCE(new_epoch, 0))) OVER (PARTITION BY instance_id ORDER BY id"
                        + " ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)) AS seen FROM faults_epoch) e"
                        + " WHERE new_epoch IS NOT NULL AND new_epoch < seen ORDER BY at_us",
                (rs, n) -> new EpochRegression(
                        rs.getString(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getLong(4),
                        rs.getLong(5),
                        rs.getLong(6),
                        rs.getLong(7)));
        Long stale = db.queryForObject(
                "SELECT COUNT(*) FROM faults_epoch WHERE new_epoch IS DISTINCT FROM old_epoch"
                        + " AND new_epoch < leader_epoch",
                Long.class);
        Map<String, String> settings = new LinkedHashMap<>();
        db.query("SELECT name, value FROM faults_setting ORDER BY name", rs -> {
            settings.put(rs.getString(1), rs.getString(2));
        });
        return new History(
                instances,
                trails,
                runs,
                faults,
                processes,
                lease,
                beats,
                orders,
                ledger,
                regressions,
                stale == null ? 0 : stale,
                settings,
                limitsOf(db),
                failoversOf(db));
    }

    /** The pair's failovers, what they lost and what the nodes said; none in a run on one server. */
    private static Failovers failoversOf(JdbcTemplate db) {
        Boolean exists = db.queryForObject("SELECT to_regclass('faults_failover') IS NOT NULL", Boolean.class);
        if (!Boolean.TRUE.equals(exists)) {
            return Failovers.NONE;
        }
        List<Failover> failovers = db.query(
                "SELECT id, kind, replayed_until_us, killed_us, promoted_us, back_from_us, back_to_us"
                        + " FROM faults_failover ORDER BY id",
                (rs, n) -> new Failover(
                        rs.getLong(1),
                        rs.getString(2),
                        rs.getLong(3),
                        rs.getLong(4),
                        rs.getLong(5),
                        (Long) rs.getObject(6),
                        (Long) rs.getObject(7)));
        List<LostRow> lost = db.query(
                "SELECT failover_id, what, instance_id, detail, at_us FROM faults_lost ORDER BY id",
                (rs, n) ->
                        new LostRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getLong(5)));
        List<Said> said = db.query(
                "SELECT source, node, at_us, line, instance_ids FROM faults_said ORDER BY at_us, id",
                (rs, n) -> new Said(
                        rs.getString(1),
                        rs.getString(2),
                        rs.getLong(3),
                        rs.getString(4),
                        rs.getString(5).isEmpty()
                                ? java.util.Set.of()
                                : java.util.Set.of(rs.getString(5).split(","))));
        Boolean recorded = db.queryForObject("SELECT to_regclass('faults_acked') IS NOT NULL", Boolean.class);
        java.util.Set<String> acked = Boolean.TRUE.equals(recorded)
                ? new java.util.HashSet<>(db.queryForList("SELECT what || ':' || id FROM faults_acked", String.class))
                : null;
        return new Failovers(failovers, lost, said, acked);
    }

    /** The limits the nodes recorded; none when no node ever created the table (a sample without the record). */
    private static List<Limit> limitsOf(JdbcTemplate db) {
        Boolean exists = db.queryForObject("SELECT to_regclass('faults_limit') IS NOT NULL", Boolean.class);
        if (!Boolean.TRUE.equals(exists)) {
            return List.of();
        }
        return db.query(
                "SELECT task_name, limit_key, permits, window_ms FROM faults_limit ORDER BY task_name, limit_key",
                (rs, n) -> {
                    Long windowMs = (Long) rs.getObject(4);
                    return new Limit(
                            rs.getString(1),
                            rs.getString(2),
                            rs.getInt(3),
                            windowMs == null ? null : Duration.ofMillis(windowMs));
                });
    }

    /** The rows of the sample's transactional ledger job; none when no node ever created the table. */
    private static List<Booking> ledgerOf(JdbcTemplate db) {
        Boolean exists = db.queryForObject("SELECT to_regclass('sample_ledger') IS NOT NULL", Boolean.class);
        if (!Boolean.TRUE.equals(exists)) {
            return List.of();
        }
        return db.query(
                "SELECT instance_id, attempt, node FROM sample_ledger ORDER BY instance_id, attempt",
                (rs, n) -> new Booking(rs.getString(1), rs.getInt(2), rs.getString(3)));
    }

    /** The sample's orders; none when no node ever created the table. */
    private static List<Order> ordersOf(JdbcTemplate db) {
        Boolean exists = db.queryForObject("SELECT to_regclass('sample_order') IS NOT NULL", Boolean.class);
        if (!Boolean.TRUE.equals(exists)) {
            return List.of();
        }
        return db.query(
                "SELECT id, state, close_instance, " + us("closes_at AT TIME ZONE 'UTC'")
                        + " FROM sample_order ORDER BY id",
                (rs, n) -> new Order(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getLong(4)));
    }

    public Map<String, Instance> instances() {
        return Collections.unmodifiableMap(instances);
    }

    /** The audit trail of an instance, in the order it was written; empty when it has none. */
    public List<Step> trail(String instanceId) {
        return trails.getOrDefault(instanceId, List.of());
    }

    /** Every instance id that has audit rows. */
    public java.util.Set<String> audited() {
        return Collections.unmodifiableSet(trails.keySet());
    }

    /** The recorded runs of an instance, by start; empty when none. */
    public List<Run> runs(String instanceId) {
        return runs.getOrDefault(instanceId, List.of());
    }

    /** Every recorded run, by start. */
    public List<Run> runs() {
        return allRuns;
    }

    public List<Fault> faults() {
        return faults;
    }

    /** The process of a pid, or null when the runner did not start it. */
    public Process process(long pid) {
        return processes.get(pid);
    }

    /** The process of a node that was running at {@code atUs}, or null when none the runner started was. */
    public Process processAt(String node, long atUs) {
        for (Process p : processes.values()) {
            if (p.node().equals(node) && p.startUs() <= atUs && (p.exitUs() == null || p.exitUs() > atUs)) {
                return p;
            }
        }
        return null;
    }

    public List<LeaseChange> leaseChanges() {
        return leaseChanges;
    }

    /** The heartbeats of a node, in order; empty when none. */
    public List<Beat> beats(String node) {
        return beats.getOrDefault(node, List.of());
    }

    /** The rows the sample's transactional job wrote, each inside its attempt's transaction. */
    public List<Booking> ledger() {
        return ledger;
    }

    public List<Order> orders() {
        return orders;
    }

    public List<EpochRegression> epochRegressions() {
        return epochRegressions;
    }

    /** Fenced writes that carried an epoch older than the lease's at that moment (a race the state guards settle). */
    public long staleFencedWrites() {
        return staleFencedWrites;
    }

    /** The cluster-wide limits of the workload's tasks, as the nodes recorded them; empty when none is configured. */
    public List<Limit> limits() {
        return limits;
    }

    /** The pair's failovers, what each lost, and what the nodes said of their store. */
    public Failovers failovers() {
        return failovers;
    }

    /** A setting the runner recorded; {@code fallback} when it did not. */
    public String setting(String name, String fallback) {
        return settings.getOrDefault(name, fallback);
    }

    public long settingLong(String name, long fallback) {
        String v = settings.get(name);
        return v == null ? fallback : Long.parseLong(v);
    }

    /**
     * When a run stopped at the latest: its recorded end, else its process's exit, else never ({@link
     * Long#MAX_VALUE}).
     */
    public long endOf(Run run) {
        if (run.endUs() != null) {
            return run.endUs();
        }
        Process p = processes.get(run.pid());
        return p != null && p.exitUs() != null ? p.exitUs() : Long.MAX_VALUE;
    }
}
