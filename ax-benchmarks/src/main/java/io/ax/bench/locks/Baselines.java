package io.ax.bench.locks;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * {@code redis-benchmark} sending the lock's own commands to the same server: {@code SET <key> <token> NX PX 10000}
 * on random keys under the prefix from as many clients as the lock load has threads; and the lock's two scripts
 * (taken from {@code RedisLocks} itself, so they are the very same text) with {@code EVAL} on one key: the
 * compare-and-extend from as many clients as {@code RedisLocks} has renewal threads, on a key that holds the token
 * (so it extends), and the compare-and-delete from the load's threads with another token (so it reads and compares but
 * deletes nothing, as a release that lost its lock). Empty when the program is not on the PATH.
 *
 * @param commands the command lines run, in the order of the results
 */
record Baselines(
        RedisBenchmark.Result acquire,
        RedisBenchmark.Result release,
        RedisBenchmark.Result renew,
        List<List<String>> commands) {

    static final String TOKEN = "bench-token";

    static Baselines run(RedisBenchmark program, StringRedisTemplate redis, String prefix, int threads, int iterations)
            throws Exception {
        if (program == null) {
            LocksScenario.log("redis-benchmark is not on the PATH: no baseline");
            return new Baselines(null, null, null, List.of());
        }
        int requests = threads * iterations;
        String held = prefix + "rb:held";
        redis.opsForValue().set(held, TOKEN, Duration.ofMinutes(5));
        List<String> acquire = List.of("SET", prefix + "rb:__rand_int__", TOKEN, "NX", "PX", "10000");
        List<String> renew = List.of("EVAL", script("EXTEND"), "1", held, TOKEN, "10000");
        List<String> release = List.of("EVAL", script("DELETE"), "1", held, "another-token");
        LocksScenario.log("redis-benchmark: SET NX PX, %d clients, %,d requests", threads, requests);
        RedisBenchmark.Result a = program.run(threads, requests, 1_000_000, acquire);
        LocksScenario.log("redis-benchmark: compare-and-delete, %d clients, %,d requests", threads, requests);
        RedisBenchmark.Result d = program.run(threads, requests, 0, release);
        LocksScenario.log(
                "redis-benchmark: compare-and-extend, %d clients, %,d requests", LocksScenario.RENEW_THREADS, requests);
        RedisBenchmark.Result e = program.run(LocksScenario.RENEW_THREADS, requests, 0, renew);
        return new Baselines(
                a,
                d,
                e,
                List.of(
                        program.commandLine(threads, requests, 1_000_000, acquire),
                        program.commandLine(threads, requests, 0, release),
                        program.commandLine(LocksScenario.RENEW_THREADS, requests, 0, renew)));
    }

    /** The text of one of {@code RedisLocks}' scripts ({@code EXTEND} or {@code DELETE}), read from the class. */
    private static String script(String field) throws ReflectiveOperationException {
        Field f = Class.forName("io.ax.redis.RedisLocks").getDeclaredField(field);
        f.setAccessible(true);
        return ((RedisScript<?>) f.get(null)).getScriptAsString();
    }
}
