package io.ax.jdbc;

import io.ax.core.cluster.WakeUps;
import io.ax.core.logging.Loggers;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Wake-ups through PostgreSQL's {@code LISTEN/NOTIFY} on one channel per table prefix: the payload is the node
 * that should look (or {@link WakeUps#LEADER}). One connection of its own listens (thread {@code ax-listen}); when
 * it breaks, it is opened again after a pause, and meanwhile the nodes' polls find the work.
 */
final class PostgresWakeUps implements WakeUps {

    private static final System.Logger LOG = Loggers.get(PostgresWakeUps.class.getName());
    private static final int WAIT_MILLIS = 500;
    private static final long RETRY_MILLIS = 2_000;

    private final DataSource dataSource;
    private final JdbcTemplate jdbc;
    private final String channel;
    private volatile boolean running;
    private volatile Thread thread;
    private volatile Connection listening;

    PostgresWakeUps(DataSource dataSource, String prefix) {
        this.dataSource = dataSource;
        this.jdbc = new JdbcTemplate(dataSource);
        this.channel = prefix + "wake";
    }

    @Override
    public void signal(Collection<String> signals) {
        if (signals.isEmpty()) {
            return;
        }
        try {
            // one round trip for all: pg_notify takes the channel as a value, so nothing is spliced into SQL
            jdbc.query(
                    "SELECT pg_notify(?, s) FROM unnest(?::varchar[]) AS s",
                    rs -> {},
                    channel,
                    signals.toArray(new String[0]));
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "Wake-up not sent (the nodes poll anyway): {0}", e.toString());
        }
    }

    @Override
    public synchronized void listen(Consumer<String> onSignal) {
        if (running) {
            return;
        }
        running = true;
        Thread t = new Thread(() -> loop(onSignal), "ax-listen");
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    private void loop(Consumer<String> onSignal) {
        boolean failing = false;
        while (running) {
            try (Connection c = dataSource.getConnection()) {
                listening = c;
                try (Statement s = c.createStatement()) {
                    s.execute("LISTEN " + channel); // the prefix is checked: letters, digits and underscores
                }
                if (failing) {
                    LOG.log(Level.INFO, "AX listens for wake-ups again");
                    failing = false;
                }
                PGConnection pg = c.unwrap(PGConnection.class);
                while (running) {
                    PGNotification[] got = pg.getNotifications(WAIT_MILLIS);
                    for (PGNotification n : got == null ? new PGNotification[0] : got) {
                        onSignal.accept(n.getParameter());
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (!running) {
                    return;
                }
                if (!failing) {
                    failing = true;
                    LOG.log(Level.WARNING, "AX lost its wake-up connection; polling meanwhile: {0}", e.toString());
                }
                try {
                    TimeUnit.MILLISECONDS.sleep(RETRY_MILLIS);
                } catch (InterruptedException interrupted) {
                    return;
                }
            } finally {
                listening = null;
            }
        }
    }

    @Override
    public void close() {
        running = false;
        Thread t = thread;
        if (t != null) {
            t.interrupt();
            try {
                t.join(WAIT_MILLIS * 2L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
