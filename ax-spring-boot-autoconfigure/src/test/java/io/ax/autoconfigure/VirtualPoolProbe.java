package io.ax.autoconfigure;

import static org.awaitility.Awaitility.await;

import io.ax.core.AxJob;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.RetryPolicy;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.PoolSettings;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/**
 * Run by {@link VirtualThreadPoolsTest} in a JVM of Java 21 or later (the build's own is 17): pools of virtual
 * threads at work, printed one finding a line ({@code name=value}) for the test to judge. Exits 0 when it could
 * look at everything, whatever it found.
 */
public final class VirtualPoolProbe {

    private static final Duration BOUND = Duration.ofSeconds(20);

    private VirtualPoolProbe() {}

    public static void main(String[] args) throws Exception {
        engine();
        spring();
        System.out.println("done=true");
        System.exit(0);
    }

    /** An engine with a pool of two virtual workers: ten slow attempts, and one that overruns its timeout. */
    private static void engine() throws Exception {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        Map<String, Boolean> virtual = new ConcurrentHashMap<>();
        AtomicBoolean interrupted = new AtomicBoolean();
        RecordingExecutor executor = new RecordingExecutor()
                .when("slow", context -> {
                    int now = running.incrementAndGet();
                    most.accumulateAndGet(now, Math::max);
                    virtual.put(Thread.currentThread().getName(), isVirtual());
                    try {
                        Thread.sleep(150);
                    } finally {
                        running.decrementAndGet();
                    }
                    return AxResult.success();
                })
                .when("stuck", context -> {
                    try {
                        new java.util.concurrent.CountDownLatch(1).await(); // until its timeout interrupts it
                    } catch (InterruptedException e) {
                        interrupted.set(true);
                        throw e;
                    }
                    return AxResult.success();
                });
        AxEngine engine = AxEngine.builder()
                .store(new InMemoryInstanceStore())
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId("probe")
                .pools(Map.of("io", new PoolSettings(2, 100, true)))
                .shutdownAwait(Duration.ofSeconds(2))
                .build();
        engine.register(AxTask.builder("slow")
                .target("test.slow")
                .group("io")
                .concurrent(true)
                .build());
        engine.register(AxTask.builder("stuck")
                .target("test.stuck")
                .group("io")
                .timeout(Duration.ofMillis(300))
                .retry(RetryPolicy.none())
                .build());
        engine.start();
        try {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                ids.add(engine.triggerNow("slow"));
            }
            String stuck = engine.triggerNow("stuck");
            ids.add(stuck);
            await().atMost(BOUND).until(() -> ids.stream().allMatch(id -> ended(engine, id)));
            System.out.println("slow-ended=" + ids.subList(0, 10).stream().allMatch(id -> ended(engine, id)));
            System.out.println("slow-runs=" + executor.runsOf("slow").size());
            System.out.println("most-at-once=" + most.get());
            System.out.println("workers=" + new java.util.TreeMap<>(virtual));
            System.out.println("stuck-states="
                    + engine.find(stuck)
                            .map(d -> d.auditTrail().stream()
                                    .map(a -> a.to().name())
                                    .toList())
                            .orElse(List.of()));
            System.out.println("stuck-interrupted=" + interrupted.get());
        } finally {
            engine.stop();
        }
    }

    /** The Spring side: spring.threads.virtual.enabled puts the pools on virtual threads, but for a group that opts out. */
    private static void spring() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AxAutoConfiguration.class))
                .withUserConfiguration(Jobs.class)
                .withPropertyValues("spring.threads.virtual.enabled=true", "ax.pools.plain.virtual-threads=false")
                .run(context -> {
                    if (context.getStartupFailure() != null) {
                        System.out.println("spring-failure=" + context.getStartupFailure());
                        return;
                    }
                    AxEngine engine = context.getBean(AxEngine.class);
                    String onDefault = engine.triggerNow("onDefault");
                    String onPlain = engine.triggerNow("onPlain");
                    await().atMost(BOUND).until(() -> ended(engine, onDefault) && ended(engine, onPlain));
                    System.out.println("spring-default-virtual=" + Jobs.VIRTUAL.get("onDefault"));
                    System.out.println("spring-plain-virtual=" + Jobs.VIRTUAL.get("onPlain"));
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class Jobs {
        static final Map<String, Boolean> VIRTUAL = new ConcurrentHashMap<>();

        @AxJob(name = "onDefault")
        void onDefault() {
            VIRTUAL.put("onDefault", isVirtual());
        }

        @AxJob(name = "onPlain", group = "plain")
        void onPlain() {
            VIRTUAL.put("onPlain", isVirtual());
        }
    }

    private static boolean ended(AxEngine engine, String id) {
        InstanceState state = state(engine, id);
        return state != null && state.isFinal();
    }

    private static InstanceState state(AxEngine engine, String id) {
        return engine.find(id).map(d -> d.instance().state()).orElse(null);
    }

    /** {@code Thread.isVirtual()}, which the Java 17 compiler does not know. */
    private static boolean isVirtual() {
        try {
            return (boolean) Thread.class.getMethod("isVirtual").invoke(Thread.currentThread());
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }
}
