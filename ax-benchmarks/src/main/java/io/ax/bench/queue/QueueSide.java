package io.ax.bench.queue;

import com.zaxxer.hikari.HikariDataSource;
import io.ax.bench.Options;
import io.ax.bench.cluster.Node;
import io.ax.bench.cluster.NodeProcesses;
import io.ax.bench.db.Postgres;
import io.ax.jdbc.JdbcSchema;
import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One side of the {@code queue} scenario: how its processes start, where its rows are, and the one query that says
 * whether a drained queue is done in the database. Each side has a schema of its own, made empty before each round.
 */
abstract class QueueSide {

    private final String name;
    final String schema;
    final Postgres pg;
    private HikariDataSource admin;

    /** The search path of the benchmark's own connection: the side's schema, or {@code public} while it has none. */
    private final String adminPath;

    QueueSide(String name, String schema, String adminPath, Postgres pg) {
        this.name = name;
        this.schema = schema;
        this.adminPath = adminPath;
        this.pg = pg;
    }

    String name() {
        return name;
    }

    /** Empties the side's schema and creates its tables. */
    abstract void recreate() throws SQLException;

    /** Starts one process of the side; it answers {@code @READY} once it can take commands. */
    abstract Node start(NodeProcesses processes, String label, String nodeId) throws IOException;

    /** Jobs not yet done in the database (queued, or run but not yet recorded). */
    abstract long left() throws SQLException;

    /** Removes what a warm-up left behind (the rows of finished jobs that the side keeps). */
    abstract void clearFinished() throws SQLException;

    /** Drops the side's schema. */
    void drop() throws SQLException {
        if (admin != null) {
            admin.close();
            admin = null;
        }
        pg.dropSchema(schema);
    }

    /** The benchmark's one connection for the side's tables. */
    final JdbcTemplate admin() {
        if (admin == null) {
            admin = pg.pool(adminPath, 1);
        }
        return new JdbcTemplate(admin);
    }

    /** The number the query counts. */
    final long count(String sql) {
        Long n = admin().queryForObject(sql, Long.class);
        return n == null ? 0 : n;
    }

    /** AX: one application per process ({@link QueueNode}), its tables made by AX's own migrations. */
    static final class Ax extends QueueSide {

        private static final String PREFIX = "axq_";
        private final Options options;
        private final int threads;

        Ax(Postgres pg, Options options, int threads) {
            super("AX", "bench_queue_ax", "bench_queue_ax", pg);
            this.options = options;
            this.threads = threads;
        }

        @Override
        void recreate() throws SQLException {
            pg.recreateSchema(schema);
            JdbcSchema.migrate(admin().getDataSource(), PREFIX);
        }

        @Override
        Node start(NodeProcesses processes, String label, String nodeId) throws IOException {
            return processes.startJava(
                    QueueNode.class,
                    label,
                    nodeId,
                    List.of(
                            "--jdbc-url=" + options.jdbcUrl(),
                            "--jdbc-user=" + options.jdbcUser(),
                            "--jdbc-password=" + options.jdbcPassword(),
                            "--schema=" + schema,
                            "--prefix=" + PREFIX,
                            "--threads=" + threads));
        }

        @Override
        long left() {
            return count("SELECT COUNT(*) FROM " + PREFIX + "instance WHERE state <> 'SUCCESS'");
        }

        @Override
        void clearFinished() {
            admin().execute("TRUNCATE " + PREFIX + "audit, " + PREFIX + "instance");
        }
    }

    /** graphile-worker: one worker per process, its tables made by its own migrations when the process starts. */
    static final class Graphile extends QueueSide {

        private final GraphileWorker worker;
        private final Options options;
        private final int concurrency;

        Graphile(Postgres pg, GraphileWorker worker, Options options, int concurrency) {
            super("graphile-worker " + GraphileWorker.VERSION, "bench_queue_graphile", "public", pg);
            this.worker = worker;
            this.options = options;
            this.concurrency = concurrency;
        }

        @Override
        void recreate() throws SQLException {
            // the worker processes make it with graphile-worker's own migrations as they start
            pg.dropSchema(schema);
        }

        @Override
        Node start(NodeProcesses processes, String label, String nodeId) throws IOException {
            return processes.launch(label, nodeId, worker.command(options, schema, concurrency));
        }

        @Override
        long left() {
            // a job is deleted once done
            return count("SELECT COUNT(*) FROM " + schema + "._private_jobs");
        }

        @Override
        void clearFinished() {
            // nothing is kept of a finished job
        }
    }
}
