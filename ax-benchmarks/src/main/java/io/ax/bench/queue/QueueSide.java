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

    QueueSide(String name, String schema, Postgres pg) {
        this.name = name;
        this.schema = schema;
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
        pg.dropSchema(schema);
    }

    /** AX: one application per process ({@link QueueNode}), its tables made by AX's own migrations. */
    static final class Ax extends QueueSide {

        private static final String PREFIX = "axq_";
        private final Options options;
        private final int threads;
        private HikariDataSource dataSource;

        Ax(Postgres pg, Options options, int threads) {
            super("AX", "bench_queue_ax", pg);
            this.options = options;
            this.threads = threads;
        }

        @Override
        void recreate() throws SQLException {
            pg.recreateSchema(schema);
            if (dataSource == null) {
                dataSource = pg.pool(schema, 1);
            }
            JdbcSchema.migrate(dataSource, PREFIX);
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
            Long left = new JdbcTemplate(dataSource)
                    .queryForObject("SELECT COUNT(*) FROM " + PREFIX + "instance WHERE state <> 'SUCCESS'", Long.class);
            return left == null ? 0 : left;
        }

        @Override
        void clearFinished() {
            new JdbcTemplate(dataSource).execute("TRUNCATE " + PREFIX + "audit, " + PREFIX + "instance");
        }

        @Override
        void drop() throws SQLException {
            if (dataSource != null) {
                dataSource.close();
                dataSource = null;
            }
            super.drop();
        }
    }

    /** graphile-worker: one worker per process, its tables made by its own migrations when the process starts. */
    static final class Graphile extends QueueSide {

        private final GraphileWorker worker;
        private final Options options;
        private final int concurrency;
        private HikariDataSource dataSource;

        Graphile(Postgres pg, GraphileWorker worker, Options options, int concurrency) {
            super("graphile-worker " + GraphileWorker.VERSION, "bench_queue_graphile", pg);
            this.worker = worker;
            this.options = options;
            this.concurrency = concurrency;
        }

        @Override
        void recreate() throws SQLException {
            pg.dropSchema(schema);
            if (dataSource == null) {
                dataSource = pg.pool("public", 1);
            }
        }

        @Override
        Node start(NodeProcesses processes, String label, String nodeId) throws IOException {
            return processes.launch(label, nodeId, worker.command(options, schema, concurrency));
        }

        @Override
        long left() {
            // a job is deleted once done
            Long left = new JdbcTemplate(dataSource)
                    .queryForObject("SELECT COUNT(*) FROM " + schema + "._private_jobs", Long.class);
            return left == null ? 0 : left;
        }

        @Override
        void clearFinished() {
            // nothing is kept of a finished job
        }

        @Override
        void drop() throws SQLException {
            if (dataSource != null) {
                dataSource.close();
                dataSource = null;
            }
            super.drop();
        }
    }
}
