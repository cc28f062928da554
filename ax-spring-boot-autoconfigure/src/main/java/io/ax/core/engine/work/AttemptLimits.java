package io.ax.core.engine.work;

import io.ax.core.AxTask;
import io.ax.core.InstanceOrigin;
import io.ax.core.Rate;
import io.ax.core.engine.PoolSettings;
import io.ax.core.engine.threads.Due;
import io.ax.core.store.Permits;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The cluster-wide limits an attempt needs a permit of, keyed as every node keys them: its group's {@code
 * group:<group>} and {@code rate:group:<group>}, its task's {@code rate:task:<task>} and {@code task:<task>}, and its
 * mutex's {@code mutex:<expanded template>}. Used on {@link LimitedClaims}' threads.
 */
final class AttemptLimits {

    /** Longer keys are shortened to a prefix and a digest of the whole, so that any template fits the store. */
    private static final int KEY_ROOM = Permits.MAX_KEY_LENGTH - 80;

    private final Function<String, PoolSettings> poolOf;
    /** The stored payload of an instance: a run's parameters, for a mutex named after one. */
    private final Function<String, Optional<byte[]>> payloadOf;

    AttemptLimits(Function<String, PoolSettings> poolOf, Function<String, Optional<byte[]>> payloadOf) {
        this.poolOf = poolOf;
        this.payloadOf = payloadOf;
    }

    /**
     * The limits an attempt of {@code due} needs a permit of. A mutex named after a parameter takes a run's own
     * parameters (a run on demand given some, kept as its payload) over the task's.
     */
    List<Permits.Limit> of(Due due) {
        AxTask task = due.task();
        List<Permits.Limit> limits = new ArrayList<>(1);
        PoolSettings pool = poolOf.apply(task.group());
        if (pool.clusterLimit() > 0) {
            limits.add(new Permits.Limit(fit("group:" + task.group()), pool.clusterLimit()));
        }
        if (pool.rate() != null) {
            limits.add(new Permits.Limit(
                    fit("rate:group:" + task.group()),
                    pool.rate().permits(),
                    pool.rate().window()));
        }
        Rate rate = task.limits().rate();
        if (rate != null) {
            limits.add(new Permits.Limit(fit("rate:task:" + task.name()), rate.permits(), rate.window()));
        }
        if (task.limits().maxConcurrent() > 0) {
            limits.add(
                    new Permits.Limit(fit("task:" + task.name()), task.limits().maxConcurrent()));
        }
        if (task.limits().mutex() != null) {
            Map<String, String> params = task.params();
            if (due.origin() == InstanceOrigin.ON_DEMAND && task.limits().mutexNamesParameters()) {
                params = payloadOf
                        .apply(due.instanceId())
                        .map(bytes ->
                                RunParams.with(task, RunParams.decode(bytes)).params())
                        .orElse(params);
            }
            limits.add(new Permits.Limit(fit("mutex:" + task.limits().mutexKey(params, due.key())), 1));
        }
        return limits;
    }

    /** A key that fits the store: a long one keeps a readable prefix and a digest of the whole. */
    static String fit(String key) {
        if (key.length() <= Permits.MAX_KEY_LENGTH) {
            return key;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return key.substring(0, KEY_ROOM) + "#" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }
}
