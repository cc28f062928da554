package io.ax.bench.locks;

import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.protocol.ProtocolKeyword;
import java.net.SocketAddress;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the commands one Lettuce client completed, by command type: how the scenario knows how many renewals
 * {@code RedisLocks} sent, which it does not tell. Thread-safe.
 */
final class CommandCounter implements CommandLatencyRecorder {

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    @Override
    public void recordCommandLatency(
            SocketAddress local,
            SocketAddress remote,
            ProtocolKeyword commandType,
            long firstResponseLatency,
            long completionLatency) {
        counts.computeIfAbsent(commandType.toString(), k -> new LongAdder()).increment();
    }

    /** Commands completed per type since the last call, then starts counting from zero. */
    Map<String, Long> drain() {
        Map<String, Long> out = new TreeMap<>();
        counts.forEach((type, n) -> {
            long c = n.sumThenReset();
            if (c > 0) {
                out.put(type, c);
            }
        });
        return out;
    }
}
