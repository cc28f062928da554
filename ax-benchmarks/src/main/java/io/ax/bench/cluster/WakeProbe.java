package io.ax.bench.cluster;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * The wake-up transport alone, measured beside a round in the benchmark JVM: every {@link #EVERY_MILLIS} ms a
 * message carrying its send time ({@code System.nanoTime()}) goes out on a channel of its own, Redis pub/sub ({@code
 * <prefix>probe}) or PostgreSQL {@code NOTIFY} ({@code axbench_probe}), and a subscriber in the same JVM records how
 * long it took to arrive. Under the same load as the nodes, so it tells how much of an acknowledgement is the hop
 * itself. Threads: {@code ack-probe} (sends), and Lettuce's or {@code ack-probe-listen} (receives). Thread-safe.
 */
abstract class WakeProbe implements AutoCloseable {

    static final int EVERY_MILLIS = 20;

    /** Microseconds from send to arrival; guarded by itself. */
    private final Histogram hops = new Histogram(3);

    private final ScheduledThreadPoolExecutor sender = new ScheduledThreadPoolExecutor(1, r -> {
        Thread t = new Thread(r, "ack-probe");
        t.setDaemon(true);
        return t;
    });

    /** Starts sending. */
    final void start() {
        sender.scheduleAtFixedRate(
                () -> {
                    try {
                        send(Long.toString(System.nanoTime()));
                    } catch (Exception e) {
                        ClusterScenario.log("wake-up probe: not sent: %s", e);
                    }
                },
                EVERY_MILLIS,
                EVERY_MILLIS,
                TimeUnit.MILLISECONDS);
    }

    /** Starts counting from now. */
    final void cut() {
        synchronized (hops) {
            hops.reset();
        }
    }

    /** What arrived since the last cut. */
    final Histogram hops() {
        synchronized (hops) {
            return hops.copy();
        }
    }

    final void arrived(String payload) {
        long micros = (System.nanoTime() - Long.parseLong(payload)) / 1_000;
        synchronized (hops) {
            hops.recordValue(Math.max(0, micros));
        }
    }

    abstract void send(String payload) throws Exception;

    /**
     * How many connections listen on the nodes' own wake-up channel {@code channel} now (Redis {@code PUBSUB
     * NUMSUB}): proof that the nodes' wake-ups go where the round says; -1 where the transport cannot tell.
     */
    long listeners(String channel) {
        return -1;
    }

    @Override
    public void close() {
        sender.shutdownNow();
    }

    /** Redis pub/sub through Lettuce: one connection publishes, one subscribes. */
    static WakeProbe redis(String host, int port, String prefix) {
        RedisProbe p = new RedisProbe(RedisClient.create(RedisURI.create(host, port)), prefix + "probe");
        p.start();
        return p;
    }

    /** PostgreSQL {@code NOTIFY}: one connection notifies, one listens. */
    static WakeProbe postgres(String url, String user, String password) throws SQLException {
        PostgresProbe p = new PostgresProbe(url, user, password);
        p.start();
        return p;
    }

    private static final class RedisProbe extends WakeProbe {

        private final RedisClient client;
        private final String channel;
        private final StatefulRedisConnection<String, String> publisher;
        private final StatefulRedisPubSubConnection<String, String> subscriber;

        RedisProbe(RedisClient client, String channel) {
            this.client = client;
            this.channel = channel;
            this.publisher = client.connect();
            this.subscriber = client.connectPubSub();
            subscriber.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String from, String message) {
                    arrived(message);
                }
            });
            subscriber.sync().subscribe(channel);
        }

        @Override
        void send(String payload) {
            publisher.sync().publish(channel, payload);
        }

        @Override
        long listeners(String nodesChannel) {
            Long n = publisher.sync().pubsubNumsub(nodesChannel).get(nodesChannel);
            return n == null ? 0 : n;
        }

        @Override
        public void close() {
            super.close();
            subscriber.close();
            publisher.close();
            client.shutdown();
        }
    }

    private static final class PostgresProbe extends WakeProbe {

        private static final String CHANNEL = "axbench_probe";

        private final Connection notifier;
        private final PreparedStatement notify;
        private final Connection listener;
        private final Thread listening;
        private volatile boolean running = true;

        PostgresProbe(String url, String user, String password) throws SQLException {
            this.notifier = DriverManager.getConnection(url, user, password);
            this.notify = notifier.prepareStatement("SELECT pg_notify('" + CHANNEL + "', ?)");
            this.listener = DriverManager.getConnection(url, user, password);
            try (Statement s = listener.createStatement()) {
                s.execute("LISTEN " + CHANNEL);
            }
            this.listening = new Thread(this::listen, "ack-probe-listen");
            listening.setDaemon(true);
            listening.start();
        }

        private void listen() {
            try {
                PGConnection pg = listener.unwrap(PGConnection.class);
                while (running) {
                    PGNotification[] got = pg.getNotifications(100);
                    if (got != null) {
                        for (PGNotification n : got) {
                            arrived(n.getParameter());
                        }
                    }
                }
            } catch (SQLException e) {
                if (running) {
                    ClusterScenario.log("wake-up probe: LISTEN ended: %s", e);
                }
            }
        }

        @Override
        void send(String payload) throws SQLException {
            synchronized (notify) {
                notify.setString(1, payload);
                notify.execute();
            }
        }

        @Override
        public void close() {
            super.close();
            running = false;
            try {
                listening.join(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                notifier.close();
                listener.close();
            } catch (SQLException e) {
                ClusterScenario.log("wake-up probe: close: %s", e);
            }
        }
    }
}
