package io.ax.bench.cluster;

import com.zaxxer.hikari.HikariDataSource;
import io.ax.bench.db.Postgres;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.cluster.WakeUps;
import io.ax.core.store.NewFire;
import io.ax.jdbc.JdbcInstanceStore;
import io.ax.jdbc.JdbcSchema;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * AX's tables in schema {@code bench_cluster} ({@code bench_cost} for the {@code cost} scenario), one set per part of
 * the scenario (table prefix {@code axb_}, {@code axr_}, {@code axf_} or {@code axp_}), created by AX's own
 * migrations. The burst is written as the {@code burst} scenario writes it, straight into the store
 * ({@link JdbcInstanceStore#schedule}): SCHEDULED instances of the one concurrent on-demand task, origin DELAYED, no
 * key, each with its CREATED and SCHEDULED audit rows.
 */
final class AxCluster implements ClusterSystem {

    static final String SCHEMA = "bench_cluster";
    private static final int CHUNK = 5_000;

    private final Postgres pg;
    private final String schema;
    private final HikariDataSource dataSource;
    private final JdbcTemplate jdbc;
    /** Whether a burst's writer wakes the nodes once it is written, as an engine's own writes do. */
    private final boolean wakeOwners;
    /** Whether each burst execution is written with a key of its own (for a mutex made of it). */
    private final boolean keyed;

    private Part part = Part.BURST;

    /**
     * @param wakeOwners whether the burst's writer then wakes the owners of its partitions, as {@code scheduleAll} of
     *     an AX node does ({@code WakeUps.LEADER}, on PostgreSQL a NOTIFY); without, they find it with their sweep for
     *     overdue rows, about a second after it falls due
     * @param keyed whether each burst execution has a key of its own ({@code k-<n>})
     */
    AxCluster(Postgres pg, boolean wakeOwners, boolean keyed) throws SQLException {
        this(pg, SCHEMA, wakeOwners, keyed);
    }

    /** Drops {@code schema} and creates it empty; a burst's writer wakes no node. */
    AxCluster(Postgres pg, String schema) throws SQLException {
        this(pg, schema, false, false);
    }

    private AxCluster(Postgres pg, String schema, boolean wakeOwners, boolean keyed) throws SQLException {
        this.pg = pg;
        this.schema = schema;
        this.wakeOwners = wakeOwners;
        this.keyed = keyed;
        pg.recreateSchema(schema);
        this.dataSource = pg.pool(schema, 2);
        this.jdbc = new JdbcTemplate(dataSource);
    }

    @Override
    public String name() {
        return "AX";
    }

    /** The table prefix of the current part. */
    String prefix() {
        return part.prefix;
    }

    JdbcTemplate jdbc() {
        return jdbc;
    }

    HikariDataSource dataSource() {
        return dataSource;
    }

    @Override
    public List<String> nodeArgs() {
        return List.of("--system=ax", "--schema=" + schema, "--prefix=" + part.prefix);
    }

    @Override
    public void recreate(Part part) {
        this.part = part;
        drop(part);
        JdbcSchema.migrate(dataSource, part.prefix);
    }

    @Override
    public void drop(Part part) {
        List<String> tables = jdbc.queryForList(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = ?", String.class, schema);
        for (String t : tables) {
            if (t.startsWith(part.prefix)) {
                jdbc.execute("DROP TABLE IF EXISTS " + schema + "." + t + " CASCADE");
            }
        }
    }

    @Override
    public void writeBurst(int first, int count, Instant due) throws SQLException {
        JdbcInstanceStore store = new JdbcInstanceStore(dataSource, part.prefix);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        List<NewFire> chunk = new ArrayList<>(CHUNK);
        for (int i = 0; i < count; i++) {
            chunk.add(new NewFire(
                    new TaskInstance(
                            AxNode.burstId(first + i),
                            AxNode.BURST_TASK,
                            due,
                            InstanceState.SCHEDULED,
                            0,
                            "bench",
                            now,
                            InstanceOrigin.DELAYED,
                            keyed ? "k-" + (first + i) : null),
                    "burst"));
            if (chunk.size() == CHUNK || i == count - 1) {
                store.schedule(chunk);
                chunk.clear();
            }
        }
        analyze();
        if (wakeOwners) {
            try (WakeUps wakeUps = store.wakeUps()) {
                wakeUps.signal(List.of(WakeUps.LEADER));
            }
        }
    }

    @Override
    public void clearBurst() {
        jdbc.execute("TRUNCATE " + part.prefix + "audit, " + part.prefix + "instance");
    }

    @Override
    public long burstLeft(int count) {
        Long done = jdbc.queryForObject(
                "SELECT COUNT(*) FROM " + part.prefix + "instance WHERE state = 'SUCCESS'", Long.class);
        return count - (done == null ? 0 : done);
    }

    @Override
    public void prepareRecurring(int tasks) {
        // nothing: every node registers the tasks, and the leader writes their fires
    }

    @Override
    public void analyze() throws SQLException {
        pg.analyze(schema);
    }

    @Override
    public void close() throws SQLException {
        dataSource.close();
    }

    /** Drops the schema with every part's tables. */
    void dropSchema() throws SQLException {
        pg.dropSchema(schema);
    }
}
