package io.ax.jdbc;

import io.ax.core.AxException;
import io.ax.core.cluster.EpochFence;
import io.ax.core.cluster.LeaderInfo;
import io.ax.core.cluster.LeaderLease;
import io.ax.core.cluster.Lease;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The leader lease in the {@code <prefix>leader} table: one row, changed only by conditional {@code UPDATE}s whose
 * every expiry is computed from the database's clock inside the statement. This class reads no clock of its own, so
 * a node whose clock or time zone is off can neither take an unexpired lease nor keep an expired one. Thread-safe.
 *
 * <p>A lease's {@link Lease#remaining() remaining} time is counted on the database's clock from the moment it was
 * written; a holder that counts it down from just before its call never believes it leads after the lease expired.
 *
 * <p>Create the tables first with {@link JdbcSchema#migrate}. Every method throws Spring's {@code
 * DataAccessException} when the database cannot be reached.
 */
public final class JdbcLeaderLease implements LeaderLease, EpochFence {

    private final JdbcTemplate jdbc;
    private final ClusterSql sql;

    /**
     * @param dataSource where the tables live
     * @param tablePrefix the prefix of AX's tables, e.g. {@code ax_}
     * @throws IllegalArgumentException when the prefix is not a safe identifier start
     */
    public JdbcLeaderLease(DataSource dataSource, String tablePrefix) {
        Objects.requireNonNull(dataSource, "dataSource");
        this.jdbc = new JdbcTemplate(dataSource);
        this.sql = new ClusterSql(JdbcSchema.checkPrefix(tablePrefix), Vendor.dialectOf(dataSource));
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException when {@code duration} is not positive, or too long to store
     */
    @Override
    public Optional<Lease> acquire(String node, Duration duration) {
        Objects.requireNonNull(node, "node");
        long us = micros(duration);
        // Two statements, no transaction around them: a process frozen between the two (GC, SIGSTOP) must not keep
        // the lease row locked, or no standby could take over. What was written is read back; a pause longer than
        // the lease between the two shows another holder, and then the lease was not won.
        return once(jdbc.update(sql.acquire, node, node, us, node)) ? readBack(node, -1) : Optional.empty();
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException when {@code duration} is not positive, or too long to store
     */
    @Override
    public Optional<Lease> renew(Lease lease, Duration duration) {
        Objects.requireNonNull(lease, "lease");
        long us = micros(duration);
        // as in acquire: no transaction holds the lease row between the write and the read
        return once(jdbc.update(sql.renew, us, lease.holder(), lease.epoch()))
                ? readBack(lease.holder(), lease.epoch())
                : Optional.empty();
    }

    @Override
    public void release(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        once(jdbc.update(sql.release, lease.holder(), lease.epoch()));
    }

    /**
     * {@inheritDoc}
     *
     * @throws AxException when the lease's row is missing (the tables were not created by {@link JdbcSchema})
     */
    @Override
    public LeaderInfo current() {
        return jdbc.query(sql.readLease, rs -> {
            if (!rs.next()) {
                throw new AxException("The leader row is missing from AX's leader table; create the tables with"
                        + " JdbcSchema.migrate instead of by hand");
            }
            long expires = rs.getLong(3);
            return new LeaderInfo(
                    rs.getString(1),
                    rs.getLong(2),
                    Micros.instant(expires),
                    Duration.of(expires - rs.getLong(4), ChronoUnit.MICROS));
        });
    }

    /** The epoch in the leader row: the last one granted, by this lease or by one that records its epochs here. */
    @Override
    public long highestEpoch() {
        return current().epoch();
    }

    /**
     * Records an epoch granted by a lease kept elsewhere (Redis), with its holder, when it is above the row's: the
     * leader's fenced writes then carry it and a deposed leader's are refused. The row's expiry is left alone: with
     * the lease elsewhere, no node takes this one.
     */
    @Override
    public boolean advance(String holder, long epoch) {
        Objects.requireNonNull(holder, "holder");
        return once(jdbc.update(sql.advanceEpoch, epoch, holder, epoch));
    }

    @Override
    public boolean raiseEpoch(long seen) {
        return once(jdbc.update(sql.raiseEpoch, seen, seen));
    }

    /**
     * The lease {@code node} just wrote, if it still holds it (at {@code epoch}, unless -1); empty when it was
     * taken over in between, which only a pause longer than the lease allows.
     */
    private Optional<Lease> readBack(String node, long epoch) {
        LeaderInfo written = current();
        if (!node.equals(written.holder()) || !written.held() || (epoch != -1 && written.epoch() != epoch)) {
            return Optional.empty();
        }
        return Optional.of(new Lease(node, written.epoch(), written.remaining()));
    }

    /** Whether a statement on the one lease row changed it: 0 rows is a lost race, more is a broken table. */
    private static boolean once(int rows) {
        if (rows > 1) {
            throw new AxException("Bug: a lease statement changed " + rows + " rows of the leader table, not one");
        }
        return rows == 1;
    }

    private static long micros(Duration duration) {
        return Micros.ofLease(duration);
    }
}
