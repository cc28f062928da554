package io.ax.faults.inject;

import io.ax.faults.Log;
import io.ax.faults.db.RunDatabase;
import java.util.EnumMap;
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
