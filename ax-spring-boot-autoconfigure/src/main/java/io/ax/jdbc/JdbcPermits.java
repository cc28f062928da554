package io.ax.jdbc;

import io.ax.core.Transition;
import io.ax.core.store.Permits;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

/**
 * Permits in the database ({@code <prefix>permit}, one row per key and slot). A claim runs in one transaction: it reads
 * the rows of its limits' keys, each with whether it is held (for most limits, whether its instance is RUNNING at its
 * attempt: a row that is not is free); answers WAITS at once, having written nothing, when a limit has no free slot;
 * else takes a slot of each limit in the order of their keys and then applies the claim with the store's own
 * conditional, fenced {@link JdbcInstanceStore#transition}. A slot is taken by deleting the row in it, if any, only
 * while that row is still free, then inserting the claim's row unless another claim's row got there first; a slot lost
 * so is followed by the next one the read found free, upwards. Every write is conditional, so what the read saw may be
 * old: a claim never takes a slot another attempt holds, and a limit never has more rows than slots. When a slot race
 * is lost on every slot tried, or the claim does not apply, the transaction is rolled back and nothing is left of it.
 *
 * <p>A rate's row ({@link Limit#isRate}) carries {@code until_us}, its claim's time on the database's clock plus the
 * window, and is held until then whatever its attempt does: each slot starts at most one attempt per window, so the
 * key at most {@code permits}. It is free once {@code until_us <= now} on that clock, read by the statement that
 * decides, and is then taken as any free row. A release leaves it. An expired row stays until a claim takes its slot,
 * which bounds them by the keys (the configured groups and tasks) times their permits; a release also deletes a few
 * expired rows of any key, for the keys no claim takes again (a task removed, a rate lowered below a slot).
 *
 * <p>Inside a caller's transaction on the store's data source (the store's writes join one), a claim that is rolled
 * back so marks that transaction rollback-only, as any failed write of the store does: claims are the engine's, made
 * outside any. Thread-safe.
 */
final class JdbcPermits implements Permits {

    /** How many slots of a limit a claim tries, of those its read found free, before it waits. */
    private static final int SLOT_TRIES = 8;
    /**
     * How many times a claim or a release the database rolled back to end a deadlock is tried at most. Claims and
     * releases lock a key's rows upwards, and each row before the instance it names, so they seldom meet in turns; but
     * MySQL and MariaDB also lock the gaps next to the keys they look up, and a claim's own row comes first.
     */
    private static final int DEADLOCK_TRIES = 5;

    /** How many expired rate rows a release deletes at most, beside its own. */
    private static final int SWEEP = 16;

    private static final List<String> COLUMNS =
            List.of("permit_key", "slot", "instance_id", "attempt", "node", "acquired_us");
    private static final List<String> KEY = COLUMNS.subList(0, 2);

    private static final RowMapper<Held> HELD =
            (rs, n) -> new Held(rs.getString(1), rs.getInt(2), rs.getString(3), rs.getInt(4), rs.getString(5));

    private static final RowMapper<Row> ROW =
            (rs, n) -> new Row(HELD.mapRow(rs, n), rs.getInt(6) == 1, rs.getInt(7) == 1);

    private final JdbcTemplate jdbc;
    private final Transactions tx;
    private final Dialect dialect;
    private final Predicate<Transition> transition;

    private final String rowsPrefix;
    private final String insert;
    private final String insertRate;
    private final String keep;
    private final String clear;
    private final String giveBack;
    private final String rowsOfAttempt;
    private final String expired;
    private final String held;
    private final String noteWait;

    /**
     * @param transition the store's own single change ({@link JdbcInstanceStore#transition}), which joins the
     *     claim's transaction
     */
    JdbcPermits(JdbcTemplate jdbc, Transactions tx, Dialect dialect, String prefix, Predicate<Transition> transition) {
        this.jdbc = jdbc;
        this.tx = tx;
        this.dialect = dialect;
        this.transition = transition;
        String table = prefix + "permit";
        String now = dialect.nowMicros();
        // with the instance LEFT JOINed as i: a rate's row until its time, another while its attempt runs
        String live = "(p.until_us > " + now + " OR p.until_us IS NULL AND i.state = 'RUNNING'"
                + " AND i.attempt = p.attempt)";
        String joined = " FROM " + table + " p LEFT JOIN " + prefix + "instance i ON i.id = p.instance_id";
        rowsPrefix = "SELECT p.permit_key, p.slot, p.instance_id, p.attempt, p.node, CASE WHEN " + live
                + " THEN 1 ELSE 0 END, CASE WHEN p.until_us IS NULL THEN 0 ELSE 1 END" + joined
                + " WHERE p.permit_key IN (";
        List<String> values = List.of("?", "?", "?", "?", "?", now);
        insert = dialect.insertUnlessHeld(table, COLUMNS, values, KEY);
        // the clock read for each column: where it moves within a statement (PostgreSQL's clock_timestamp()), until_us
        // and acquired_us may be a few microseconds more or less than the window apart
        insertRate = dialect.insertUnlessHeld(table, plus(COLUMNS, "until_us"), plus(values, now + " + ?"), KEY);
        String row = "DELETE FROM " + table + " WHERE permit_key = ? AND slot = ? AND instance_id = ? AND attempt = ?";
        String over = "NOT EXISTS (SELECT 1 FROM " + prefix + "instance i WHERE i.id = " + table + ".instance_id"
                + " AND i.state = 'RUNNING' AND i.attempt = " + table + ".attempt)";
        // The row read, only while it is free: a rate's once its time is up, another while its attempt is not RUNNING
        // (not one whose attempt a claim took up again meanwhile). The condition reads the row's own columns, so that
        // MySQL and MariaDB lock the row before the instance it names, as every claim and release does: a condition
        // on bound values is read first, and its lock on the instance, taken before the wait for the row, meets the
        // claim of that instance in the other order.
        clear = row + " AND (until_us <= " + now + " OR until_us IS NULL AND " + over + ")";
        giveBack = row + " AND until_us IS NULL AND " + over; // a rate's row is held by time alone
        // A claim's own rate row, still live: locked until the claim commits, so that no claim clears it meanwhile,
        // had it expired since.
        keep = "SELECT slot FROM " + table + " WHERE permit_key = ? AND slot = ? AND instance_id = ? AND attempt = ?"
                + " AND until_us > " + now + dialect.sharedLock();
        // by the instance's index, read without a lock: the rows are then cleared one by one by their key, as a claim
        // clears them, so that a release and a claim clearing the same row lock it in the same order
        rowsOfAttempt = "SELECT permit_key, slot, instance_id, attempt, node FROM " + table
                + " WHERE instance_id = ? AND attempt = ? AND until_us IS NULL ORDER BY permit_key, slot";
        expired = "SELECT permit_key, slot, instance_id, attempt, node FROM " + table + " WHERE until_us <= " + now
                + " ORDER BY until_us LIMIT ?";
        held = "SELECT p.permit_key, p.slot, p.instance_id, p.attempt, p.node" + joined + " WHERE " + live
                + " ORDER BY p.permit_key, p.slot LIMIT ?";
        // a note from the instance's state to the same, at the attempt it has, only while it is still in that state:
        // the read locks the row, so a change of the state in flight (a cancel on another node) is waited for and
        // read, not the state before it, which would note a wait after the change in the trail
        noteWait = "INSERT INTO " + prefix + "audit (instance_id, from_state, to_state, node, attempt, at_us, reason)"
                + " SELECT id, state, state, ?, attempt, ?, ? FROM " + prefix + "instance WHERE id = ? AND state = ?"
                + dialect.sharedLock();
    }

    private static List<String> plus(List<String> list, String last) {
        List<String> more = new ArrayList<>(list);
        more.add(last);
        return more;
    }

    /** A row as a claim reads it: the permit, whether it is held (see {@link Permits}), and whether it is a rate's. */
    private record Row(Held permit, boolean held, boolean rate) {}

    /**
     * A slot a claim may take, with the row it must clear first: null when the read found none.
     *
     * @param keep whether the row is the claim's own live rate row, which it keeps as it is
     */
    private record Slot(int slot, Held row, boolean keep) {}

    /** Ends a claim's transaction with a rollback, carrying what the claim came to. */
    private static final class Undone extends RuntimeException {
        private final transient Outcome outcome;

        Undone(Outcome outcome) {
            super(outcome.result().name(), null, false, false);
            this.outcome = outcome;
        }
    }

    @Override
    public Outcome claim(Transition claim, List<Limit> limits, boolean auditWait) {
        List<Limit> ordered = Permits.inKeyOrder(claim, limits);
        Outcome outcome = claimTried(claim, ordered);
        if (outcome.result() == Result.WAITS && auditWait) {
            noteWait(claim, outcome.reason());
        }
        return outcome;
    }

    @Override
    public void noteWait(Transition claim, String reason) {
        jdbc.update(
                noteWait,
                claim.node(),
                Micros.of(claim.at()),
                Binder.clip(reason),
                claim.instanceId(),
                claim.from().name());
    }

    private Outcome claimTried(Transition claim, List<Limit> limits) {
        return untilNoDeadlock(() -> {
            try {
                return tx.execute(() -> claimOnce(claim, limits));
            } catch (Undone undone) {
                return undone.outcome;
            }
        });
    }

    /**
     * Runs {@code work} again when the database rolled it back to end a deadlock: it was undone whole, so it may. Not
     * inside a caller's transaction, which is gone with it.
     */
    private <T> T untilNoDeadlock(Supplier<T> work) {
        for (int tries = 1; ; tries++) {
            try {
                return work.get();
            } catch (PessimisticLockingFailureException deadlocked) {
                if (tries == DEADLOCK_TRIES || tx.active()) {
                    throw deadlocked;
                }
            }
        }
    }

    private Outcome claimOnce(Transition claim, List<Limit> limits) {
        Map<String, List<Row>> rows = read(limits);
        List<List<Slot>> choices = new ArrayList<>(limits.size());
        for (Limit limit : limits) {
            List<Slot> slots = slotsFor(limit, rows.get(limit.key()), claim);
            if (slots.isEmpty()) {
                return Outcome.waits(limit, holders(rows.get(limit.key()))); // nothing written yet
            }
            choices.add(slots);
        }
        for (int i = 0; i < limits.size(); i++) {
            if (!takeOne(limits.get(i), choices.get(i), claim)) {
                throw new Undone(Outcome.waits(
                        limits.get(i), holders(rows.get(limits.get(i).key()))));
            }
        }
        if (!transition.test(claim)) { // a fenced claim throws here, and the transaction is rolled back all the same
            throw new Undone(Outcome.NOT_APPLIED);
        }
        return Outcome.CLAIMED;
    }

    /** The rows of the limits' keys, by key, each key's by slot; a key without rows has an empty list. */
    private Map<String, List<Row>> read(List<Limit> limits) {
        Map<String, List<Row>> byKey = new LinkedHashMap<>();
        for (Limit limit : limits) {
            byKey.put(limit.key(), new ArrayList<>());
        }
        if (limits.isEmpty()) {
            return byKey;
        }
        String sql = rowsPrefix + Dialect.markers(limits.size()) + ") ORDER BY p.permit_key, p.slot";
        for (Row row : jdbc.query(sql, ROW, byKey.keySet().toArray())) {
            byKey.get(row.permit().key()).add(row);
        }
        return byKey;
    }

    /**
     * The slots {@code claim} may take of {@code limit}, at most {@link #SLOT_TRIES}, lowest first: those without a
     * row and those whose row's attempt is over; or, when a row names its attempt already, that one and those above
     * it. Every claim tries a key's slots upwards, so that, on MySQL and MariaDB, where a slot tried keeps its lock
     * until the end of the transaction, two claims lock a key's slots in the same order.
     */
    private static List<Slot> slotsFor(Limit limit, List<Row> rows, Transition claim) {
        Slot own = null;
        List<Slot> slots = new ArrayList<>();
        int next = 0; // the lowest slot not seen yet: free when the next row is above it
        for (Row row : rows) {
            Held p = row.permit();
            if (p.slot() >= limit.permits()) {
                break; // a slot of a larger limit than this one
            }
            for (; next < p.slot() && slots.size() < SLOT_TRIES; next++) {
                slots.add(new Slot(next, null, false));
            }
            next = p.slot() + 1;
            if (p.instanceId().equals(claim.instanceId()) && p.attempt() == claim.attempt()) {
                own = new Slot(p.slot(), p, row.rate() && row.held());
            } else if (!row.held()) {
                slots.add(new Slot(p.slot(), p, false));
            }
        }
        for (; next < limit.permits() && slots.size() < SLOT_TRIES; next++) {
            slots.add(new Slot(next, null, false));
        }
        if (own != null) {
            int ownSlot = own.slot();
            slots.removeIf(s -> s.slot() < ownSlot);
            slots.add(0, own);
        }
        return slots.size() > SLOT_TRIES ? slots.subList(0, SLOT_TRIES) : slots;
    }

    /** Takes the first of {@code slots} that no other claim takes first; false when each was taken. */
    private boolean takeOne(Limit limit, List<Slot> slots, Transition claim) {
        String key = limit.key();
        for (Slot s : slots) {
            Held row = s.row();
            if (s.keep() && kept(key, s.slot(), claim)) {
                return true; // its window runs from its first claim: the attempt never started
            }
            if (row != null) {
                // deleted only while it is free; if it is not, or another claim deleted it, the insert says
                jdbc.update(clear, key, s.slot(), row.instanceId(), row.attempt());
            }
            if (insert(limit, s.slot(), claim)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the claim's own rate row in the slot is still live, locked so until the claim's transaction ends. */
    private boolean kept(String key, int slot, Transition claim) {
        return !jdbc.queryForList(keep, Integer.class, key, slot, claim.instanceId(), claim.attempt())
                .isEmpty();
    }

    /** Whether the claim's row went into the slot: false when another claim's row holds it. */
    private boolean insert(Limit limit, int slot, Transition claim) {
        List<Object> values =
                new ArrayList<>(List.of(limit.key(), slot, claim.instanceId(), claim.attempt(), claim.node()));
        if (limit.isRate()) {
            values.add(Micros.ofLease(limit.window()));
        }
        try {
            return jdbc.update(limit.isRate() ? insertRate : insert, values.toArray()) == 1;
        } catch (DataAccessException e) {
            if (dialect.isDuplicateKey(e)) {
                return false; // H2: the failed insert undid only itself
            }
            throw e;
        }
    }

    private static List<String> holders(List<Row> rows) {
        return rows.stream().filter(Row::held).map(r -> r.permit().instanceId()).toList();
    }

    /** Rate rows are left to their time, and not counted: none stays because its attempt is RUNNING. */
    @Override
    public int release(String instanceId, int attempt) {
        int kept = 0;
        for (Held row : jdbc.query(rowsOfAttempt, HELD, instanceId, attempt)) {
            Integer cleared = untilNoDeadlock(() -> jdbc.update(giveBack, row.key(), row.slot(), instanceId, attempt));
            if (cleared == null || cleared == 0) {
                kept++;
            }
        }
        sweep();
        return kept;
    }

    /**
     * Deletes up to {@link #SWEEP} expired rate rows of any key. A release follows every attempt with permits, outside
     * any claim's transaction, so the rows of keys no claim takes again go soon after they expire, a few per attempt,
     * while a claim reuses the expired rows of its own keys. Each is deleted by its own statement, in key order, on the
     * condition that it is still the row read and still expired.
     */
    private void sweep() {
        List<Held> rows = new ArrayList<>(jdbc.query(expired, HELD, SWEEP));
        rows.sort(Comparator.comparing(Held::key).thenComparingInt(Held::slot));
        for (Held row : rows) {
            untilNoDeadlock(() -> jdbc.update(clear, row.key(), row.slot(), row.instanceId(), row.attempt()));
        }
    }

    @Override
    public List<Held> held(int limit) {
        if (limit <= 0) {
            return List.of();
        }
        return jdbc.query(held, HELD, limit);
    }
}
