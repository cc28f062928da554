package io.ax.redis;

import io.ax.core.cluster.WakeUps;
import io.ax.core.logging.Loggers;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * Wake-ups over Redis pub/sub on one channel ({@code <prefix>events}); each message is one signal. Signals are
 * published from a thread of their own ({@code ax-redis-publish}, bounded queue: a signal that finds it full is
 * dropped, as any signal may be), so a slow Redis never holds up the dispatch path. While Redis is down they go
 * through the fallback (PostgreSQL's {@code LISTEN/NOTIFY}, or none), which is also listened to throughout, so a
 * signal sent either way is heard. Pub/sub is fire-and-forget: the nodes' polls stay the safety net. Thread-safe.
 */
final class RedisWakeUps implements WakeUps {

    private static final System.Logger LOG = Loggers.get(RedisWakeUps.class.getName());
    private static final int QUEUE = 1_024;

    private final RedisLink link;
    private final RedisConnectionFactory factory;
    private final WakeUps fallback;
    private final String channel;
    private final ThreadPoolExecutor publisher;
    private final ThreadPoolExecutor delivery;
    private RedisMessageListenerContainer container; // guarded by this

    RedisWakeUps(RedisLink link, RedisConnectionFactory factory, WakeUps fallback) {
        this.link = link;
        this.factory = factory;
        this.fallback = fallback;
        this.channel = link.key("events");
        this.publisher = singleThread("ax-redis-publish");
        this.delivery = singleThread("ax-redis-listen");
    }

    private static ThreadPoolExecutor singleThread(String name) {
        return new ThreadPoolExecutor(
                1,
                1,
                0,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(QUEUE),
                RedisLink.daemon(name),
                new ThreadPoolExecutor.DiscardPolicy()); // a lost signal costs one poll interval
    }

    @Override
    public void signal(Collection<String> signals) {
        if (signals.isEmpty()) {
            return;
        }
        if (!link.isUp()) {
            fallback.signal(signals);
            return;
        }
        List<String> copy = List.copyOf(signals);
        try {
            publisher.execute(() -> publish(copy));
        } catch (RejectedExecutionException closed) {
            // stopping: nobody needs waking
        }
    }

    private void publish(List<String> signals) {
        if (!link.isUp()) {
            fallback.signal(signals);
            return;
        }
        try {
            link.call(r -> {
                for (String s : signals) {
                    r.convertAndSend(channel, s);
                }
                return null;
            });
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "Wake-up not sent on Redis; through the fallback: {0}", e.toString());
            fallback.signal(signals);
        }
    }

    @Override
    public synchronized void listen(Consumer<String> onSignal) {
        if (container != null) {
            return;
        }
        fallback.listen(onSignal);
        RedisMessageListenerContainer c = new RedisMessageListenerContainer();
        c.setConnectionFactory(factory);
        c.setTaskExecutor(delivery);
        c.setBeanName("ax-redis-wake-ups");
        c.addMessageListener(
                (message, pattern) -> onSignal.accept(new String(message.getBody(), StandardCharsets.UTF_8)),
                new ChannelTopic(channel));
        c.afterPropertiesSet();
        try {
            c.start();
        } catch (RuntimeException e) {
            // the container keeps trying to subscribe; meanwhile the fallback and the polls carry the work
            LOG.log(Level.WARNING, "AX could not subscribe to Redis wake-ups yet: {0}", e.toString());
        }
        container = c;
    }

    /** Whether the Redis subscription is in place. */
    synchronized boolean isListening() {
        return container != null && container.isListening();
    }

    @Override
    public void close() {
        RedisMessageListenerContainer c;
        synchronized (this) {
            c = container;
        }
        if (c != null) {
            try {
                c.destroy();
            } catch (Exception e) {
                LOG.log(Level.DEBUG, "Redis wake-up listener stopped with: {0}", e.toString());
            }
        }
        fallback.close();
        publisher.shutdownNow();
        delivery.shutdownNow();
    }
}
