package io.ax.core.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The activity rollup in this JVM's memory: what an engine without a shared store keeps, for itself. Thread-safe.
 */
public final class InMemoryActivityStore implements ActivityStore {

    /** A row's identity, ordered by minute first, so that a range of minutes is a range of keys. */
    private record Key(long minute, String task, String node, String writer) implements Comparable<Key> {
        @Override
        public int compareTo(Key o) {
            int c = Long.compare(minute, o.minute);
            if (c == 0) {
                c = task.compareTo(o.task);
            }
            if (c == 0) {
                c = node.compareTo(o.node);
            }
            return c != 0 ? c : writer.compareTo(o.writer);
        }
    }

    private final ConcurrentSkipListMap<Key, ActivityRow> rows = new ConcurrentSkipListMap<>();

    @Override
    public void save(List<ActivityRow> saved) {
        for (ActivityRow r : saved) {
            rows.put(new Key(r.minute().getEpochSecond(), r.task(), r.node(), r.writer()), r);
        }
    }

    @Override
    public List<ActivityRow> find(String task, Instant from, Instant to) {
        List<ActivityRow> found = new ArrayList<>();
        if (!from.isBefore(to)) {
            return found;
        }
        Key low = new Key(from.getEpochSecond(), "", "", "");
        for (Map.Entry<Key, ActivityRow> e : rows.tailMap(low).entrySet()) {
            ActivityRow r = e.getValue();
            if (!r.minute().isBefore(to)) {
                break;
            }
            if (r.task().equals(task) && !r.minute().isBefore(from)) {
                found.add(r);
            }
        }
        return found;
    }

    @Override
    public List<ActivityTotals> totals(Instant from, Instant to) {
        Map<String, long[]> sums = new HashMap<>();
        if (from.isBefore(to)) {
            Key low = new Key(from.getEpochSecond(), "", "", "");
            for (ActivityRow r : rows.tailMap(low).values()) {
                if (!r.minute().isBefore(to)) {
                    break;
                }
                if (!r.minute().isBefore(from)) {
                    long[] s = sums.computeIfAbsent(r.task(), t -> new long[5]);
                    s[0] += r.fires();
                    s[1] += r.successes();
                    s[2] += r.failures();
                    s[3] += r.timeouts();
                    s[4] += r.deadLetters();
                }
            }
        }
        List<ActivityTotals> totals = new ArrayList<>(sums.size());
        sums.forEach((task, s) -> totals.add(new ActivityTotals(task, s[0], s[1], s[2], s[3], s[4])));
        return totals;
    }

    @Override
    public int deleteBefore(Instant before, int limit) {
        int deleted = 0;
        Iterator<Key> keys = rows.keySet().iterator();
        while (deleted < limit && keys.hasNext()) {
            Key k = keys.next();
            if (k.minute() >= before.getEpochSecond()) {
                break;
            }
            keys.remove();
            deleted++;
        }
        return deleted;
    }
}
