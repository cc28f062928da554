package io.ax.jdbc;

import io.ax.core.AxException;
import io.ax.core.cluster.ClusterProtocol;
import io.ax.core.cluster.NodeIdInUseException;
import io.ax.core.cluster.NodeInfo;
import io.ax.core.cluster.NodeRegistry;
import io.ax.core.cluster.NodeStatus;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

/**
 * The nodes of a cluster in the {@code <prefix>node} table, one row per node id. Heartbeats and their ages are read
 * from the database's clock inside each statement; this class reads no clock of its own. A node id is claimed with
 * the primary key and a conditional {@code UPDATE}, so of two processes registering one id at once exactly one
 * wins. Thread-safe.
 *
 * <p>Create the tables first with {@link JdbcSchema#migrate}. Every method throws Spring's {@code
 * DataAccessException} when the database cannot be reached.
 */
public final class JdbcNodeRegistry implements NodeRegistry {

    /** How often {@link #register} starts over when the row it met is removed before it could read it. */
    private static final int REGISTER_TRIES = 3;

    private static final int MAX_INCARNATION = 64;
    private static final int MAX_HOST = 255;
    private static final int MAX_GROUPS = 2_000;

    private final JdbcTemplate jdbc;
    private final Dialect dialect;
    private final ClusterSql sql;

    /**
     * @param dataSource where the tables live
     * @param tablePrefix the prefix of AX's tables, e.g. {@code ax_}
     * @throws IllegalArgumentException when the prefix is not a safe identifier start
     */
    public JdbcNodeRegistry(DataSource dataSource, String tablePrefix) {
        Objects.requireNonNull(dataSource, "dataSource");
        String prefix = JdbcSchema.checkPrefix(tablePrefix);
        this.jdbc = new JdbcTemplate(dataSource);
        this.dialect = Vendor.dialectOf(dataSource);
        this.sql = new ClusterSql(prefix, dialect);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Registering the same incarnation again refreshes its row (heartbeat, host, groups, capacity).
     *
     * @throws IllegalArgumentException when {@code staleAfter} is not positive, or the node's incarnation (64), host
     *     (255) or comma-separated groups (2,000 characters) do not fit their columns, or a group is empty or holds a
     *     comma
     */
    @Override
    public void register(NodeInfo node, Duration staleAfter) {
        Objects.requireNonNull(node, "node");
        long staleUs = positiveMicros(staleAfter);
        check(node.incarnation(), MAX_INCARNATION, "incarnation");
        check(node.host(), MAX_HOST, "host");
        String groups = encode(node.groups());
        long startedUs = Micros.of(node.startedAt());
        for (int i = 0; i < REGISTER_TRIES; i++) {
            try {
                jdbc.update(
                        sql.insertNode,
                        node.nodeId(),
                        node.incarnation(),
                        node.host(),
                        startedUs,
                        groups,
                        node.capacity(),
                        node.protocol());
                return;
            } catch (DataAccessException e) {
                if (!dialect.isDuplicateKey(e)) {
                    throw e;
                }
                // the id has a row: ours to refresh, a dead one to take over, or a live one to refuse
            }
            int rows = jdbc.update(
                    sql.takeOverNode,
                    node.incarnation(),
                    node.host(),
                    startedUs,
                    groups,
                    node.capacity(),
                    node.protocol(),
                    node.nodeId(),
                    node.incarnation(),
                    staleUs);
            if (rows == 1) {
                return;
            }
            List<String> host = jdbc.queryForList(sql.nodeHost, String.class, node.nodeId());
            if (!host.isEmpty()) {
                throw new NodeIdInUseException(node.nodeId(), host.get(0));
            }
            // the row was removed between the two statements: the id is free again
        }
        throw new AxException("Could not register node '" + node.nodeId() + "': its row was removed under it "
                + REGISTER_TRIES + " times in a row");
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException when {@code capacityFree} is negative
     */
    @Override
    public boolean heartbeat(String nodeId, String incarnation, int capacityFree) {
        Objects.requireNonNull(nodeId, "nodeId");
        Objects.requireNonNull(incarnation, "incarnation");
        if (capacityFree < 0 && capacityFree != NodeStatus.LEAVING) {
            throw new IllegalArgumentException(
                    "free capacity must be >= 0 (or NodeStatus.LEAVING), was " + capacityFree);
        }
        return jdbc.update(sql.heartbeat, capacityFree, nodeId, incarnation) == 1;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Compared in the statement, with the microseconds the row holds: no clock is read for it.
     */
    @Override
    public boolean heartbeat(String nodeId, String incarnation, int capacityFree, java.time.Instant notBefore) {
        Objects.requireNonNull(notBefore, "notBefore");
        if (capacityFree < 0 && capacityFree != NodeStatus.LEAVING) {
            throw new IllegalArgumentException(
                    "free capacity must be >= 0 (or NodeStatus.LEAVING), was " + capacityFree);
        }
        return jdbc.update(sql.heartbeatNotBefore, capacityFree, nodeId, incarnation, Micros.of(notBefore)) == 1;
    }

    @Override
    public List<NodeStatus> nodes() {
        // sorted here, not by the database: a column's collation orders ids differently on each vendor
        return jdbc.query(sql.nodes, NODE).stream()
                .sorted(Comparator.comparing(NodeStatus::nodeId))
                .toList();
    }

    @Override
    public boolean remove(String nodeId, String incarnation) {
        Objects.requireNonNull(nodeId, "nodeId");
        Objects.requireNonNull(incarnation, "incarnation");
        return jdbc.update(sql.removeNode, nodeId, incarnation) == 1;
    }

    private static final RowMapper<NodeStatus> NODE = (rs, n) -> {
        long heartbeat = rs.getLong(5);
        return new NodeStatus(
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                Micros.instant(rs.getLong(4)),
                Micros.instant(heartbeat),
                Duration.of(rs.getLong(8) - heartbeat, ChronoUnit.MICROS),
                decode(rs.getString(6)),
                rs.getInt(7),
                protocolOf(rs.getInt(9), rs.wasNull()));
    };

    /** A row written before protocols were recorded (no protocol) is a node of the first one. */
    private static int protocolOf(int recorded, boolean none) {
        return none ? ClusterProtocol.LEADER_ASSIGNS : recorded;
    }

    /** The groups as one column: sorted, comma-separated; group names cannot hold commas, so none is escaped. */
    private static String encode(Set<String> groups) {
        for (String g : groups) {
            if (g.isEmpty() || g.indexOf(',') >= 0) {
                throw new IllegalArgumentException("a group name is not empty and has no comma, was '" + g + "'");
            }
        }
        String joined = String.join(",", new TreeSet<>(groups));
        if (joined.length() > MAX_GROUPS) {
            throw new IllegalArgumentException("the groups a node serves take at most " + MAX_GROUPS
                    + " characters comma-separated, were " + joined.length());
        }
        return joined;
    }

    private static Set<String> decode(String groups) {
        return groups.isEmpty() ? Set.of() : Set.copyOf(Arrays.asList(groups.split(",")));
    }

    private static void check(String value, int max, String what) {
        if (value.length() > max) {
            throw new IllegalArgumentException(
                    "a node's " + what + " has at most " + max + " characters, was '" + value + "'");
        }
    }

    private static long positiveMicros(Duration staleAfter) {
        Objects.requireNonNull(staleAfter, "staleAfter");
        if (staleAfter.isNegative() || staleAfter.isZero()) {
            throw new IllegalArgumentException("staleAfter must be positive, was " + staleAfter);
        }
        return TimeUnit.MICROSECONDS.convert(staleAfter); // saturates: never stale
    }
}
