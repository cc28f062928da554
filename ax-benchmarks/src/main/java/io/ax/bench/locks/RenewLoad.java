package io.ax.bench.locks;

import io.ax.core.AxLock;
import io.ax.core.AxLocks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How many renewals one {@code RedisLocks} sends a second when it can: {@code count} locks held, each due for
 * renewal every millisecond, for a while; the renewals are the compare-and-extend scripts ({@code EVALSHA}, or
 * {@code EVAL} after a {@code NOSCRIPT}) that its Lettuce client completed meanwhile, counted by a {@link
 * CommandCounter}. Its renewal threads are then never idle, so this is their capacity, not a rate anyone asked for.
 */
final class RenewLoad {

    /**
     * @param lost locks declared lost during the window (a renewal that failed, or came too late)
     */
    record Result(int locks, double seconds, long renewals, long lost, Map<String, Long> commands) {

        double perSecond() {
            return renewals / seconds;
        }
    }

    private RenewLoad() {}

    static Result run(AxLocks locks, CommandCounter counter, int count, Duration window) throws InterruptedException {
        List<AxLock> held = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                locks.tryAcquire("renew-" + i).ifPresent(held::add);
            }
            if (held.size() < count) {
                throw new IllegalStateException(
                        "only " + held.size() + " of " + count + " locks taken for the renewal window");
            }
            counter.drain();
            long t0 = System.nanoTime();
            Thread.sleep(window.toMillis());
            Map<String, Long> commands = counter.drain();
            double seconds = (System.nanoTime() - t0) / 1e9;
            long renewals = commands.getOrDefault("EVALSHA", 0L) + commands.getOrDefault("EVAL", 0L);
            long lost = held.stream().filter(AxLock::isLost).count();
            return new Result(count, seconds, renewals, lost, commands);
        } finally {
            held.forEach(AxLock::close);
        }
    }
}
