package io.ax.faults.inject;

import io.ax.faults.Log;
import io.ax.faults.db.RunDatabase;
import io.ax.faults.store.PgPair;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.support.GeneratedKeyHolder;

/**
 * The record of every fault injected, in {@code faults_fault}: kind, target, what was done, and its start and end on
 * the runner's monotonic clock and on the database's (written over the runner's direct connection, which no fault
 * touches). Also counts the faults of each kind that were injected and those that were skipped for want of a free
 * target. Thread-safe.
 */
public final class FaultLog {

    private final RunDatabase db;
    private final Map<FaultKind, Integer> injected = new EnumMap<>(FaultKind.class);
    private final Map<FaultKind, Integer> skipped = new EnumMap<>(FaultKind.class);
    private final List<Failover> failovers = new ArrayList<>();

    /** A failover of the pair, by its row in {@code faults_failover}. */
    public record Failover(long id, PgPair.Failover done) {}

    public FaultLog(RunDatabase db) {
        this.db = db;
    }

    /** A fault that has begun; {@link #end()} records its end. */
    public final class Entry {

        private final long id;
        private final String what;

        private Entry(long id, String what) {
            this.id = id;
            this.what = what;
        }

        /** Its row in {@code faults_fault}. */
        public long id() {
            return id;
        }

        public void end() {
            db.jdbc()
                    .update(
                            "UPDATE faults_fault SET mono_end_ms = ?, db_end = clock_timestamp() WHERE id = ?",
                            Log.monoMillis(),
                            id);
            Log.info("fault %d ends: %s", id, what);
        }
    }

    public Entry begin(FaultKind kind, String target, String detail) {
        GeneratedKeyHolder key = new GeneratedKeyHolder();
        long mono = Log.monoMillis();
        db.jdbc()
                .update(
                        c -> {
                            var s = c.prepareStatement(
                                    "INSERT INTO faults_fault (kind, target, detail, mono_start_ms) VALUES (?, ?, ?, ?)",
                                    new String[] {"id"});
                            s.setString(1, kind.cliName());
                            s.setString(2, target);
                            s.setString(3, detail);
                            s.setLong(4, mono);
                            return s;
                        },
                        key);
        long id = key.getKey().longValue();
        synchronized (this) {
            injected.merge(kind, 1, Integer::sum);
        }
        String what = kind.cliName() + " " + target + ": " + detail;
        Log.info("fault %d begins: %s", id, what);
        return new Entry(id, what);
    }

    /** Records a failover of the pair in {@code faults_failover}; its id. */
    public long failover(FaultKind kind, PgPair.Failover f) {
        GeneratedKeyHolder key = new GeneratedKeyHolder();
        db.jdbc()
                .update(
                        c -> {
                            var s = c.prepareStatement(
                                    "INSERT INTO faults_failover (kind, old_port, new_port, replayed_until_us,"
                                            + " killed_us, promoted_us) VALUES (?, ?, ?, ?, ?, ?)",
                                    new String[] {"id"});
                            s.setString(1, kind.cliName());
                            s.setInt(2, f.oldPort());
                            s.setInt(3, f.newPort());
                            s.setLong(4, f.replayedUntilUs());
                            s.setLong(5, f.killedUs());
                            s.setLong(6, f.promotedUs());
                            return s;
                        },
                        key);
        long id = key.getKey().longValue();
        synchronized (this) {
            failovers.add(new Failover(id, f));
        }
        return id;
    }

    /** Records when the old primary of a failover ran again beside the new one (database clock). */
    public void oldPrimaryBack(long failoverId, long fromUs, long toUs) {
        db.jdbc()
                .update(
                        "UPDATE faults_failover SET back_from_us = ?, back_to_us = ? WHERE id = ?",
                        fromUs,
                        toUs,
                        failoverId);
    }

    /** The failovers of the run so far, in order. */
    public synchronized List<Failover> failovers() {
        return List.copyOf(failovers);
    }

    public void skipped(FaultKind kind, String why) {
        synchronized (this) {
            skipped.merge(kind, 1, Integer::sum);
        }
        Log.info("fault %s skipped: %s", kind.cliName(), why);
    }

    public synchronized Map<FaultKind, Integer> skipped() {
        return Map.copyOf(skipped);
    }
}
