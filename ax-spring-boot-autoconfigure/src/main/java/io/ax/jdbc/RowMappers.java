package io.ax.jdbc;

import io.ax.core.AuditEntry;
import io.ax.core.DeadLetter;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.store.DefinitionChange;
import io.ax.core.store.OwnedInstance;
import io.ax.core.store.StoredDefinition;
import io.ax.core.store.StoredTask;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import org.springframework.jdbc.core.RowMapper;

/** How the store's rows read back as AX's types; each mapper expects the columns in the order {@link Sql} selects. */
final class RowMappers {

    private RowMappers() {}

    /** The columns of {@link Sql#INSTANCE_COLUMNS}. */
    static final RowMapper<TaskInstance> INSTANCE = (rs, n) -> new TaskInstance(
            rs.getString(1),
            rs.getString(2),
            Micros.instant(rs.getLong(3)),
            InstanceState.valueOf(rs.getString(4)),
            rs.getInt(5),
            rs.getString(6),
            Micros.instant(rs.getLong(7)),
            InstanceOrigin.valueOf(rs.getString(8)),
            rs.getString(9),
            rs.getString(10),
            nullableInt(rs, 11));

    /** {@link #INSTANCE}'s columns, then the owner. */
    static final RowMapper<OwnedInstance> OWNED =
            (rs, n) -> new OwnedInstance(INSTANCE.mapRow(rs, n), rs.getString(12), rs.getLong(13));

    static final RowMapper<AuditEntry> AUDIT = (rs, n) -> new AuditEntry(
            rs.getString(1),
            state(rs.getString(2)),
            InstanceState.valueOf(rs.getString(3)),
            rs.getString(4),
            rs.getInt(5),
            Micros.instant(rs.getLong(6)),
            rs.getString(7));

    static final RowMapper<StoredTask> TASK = (rs, n) -> new StoredTask(
            rs.getString(1), rs.getString(2), nullableInstant(rs, 3), rs.getBoolean(4), Micros.instant(rs.getLong(5)));

    static final RowMapper<DeadLetter> DEAD_LETTER = (rs, n) -> new DeadLetter(
            rs.getString(1),
            rs.getString(2),
            Micros.instant(rs.getLong(3)),
            DeadLetterJson.readParams(rs.getString(4)),
            DeadLetterJson.readAttempts(rs.getString(5)),
            rs.getString(6),
            Micros.instant(rs.getLong(7)));

    static final RowMapper<StoredDefinition> DEFINITION = (rs, n) -> new StoredDefinition(
            rs.getString(1), rs.getString(2), rs.getLong(3), rs.getString(4), Micros.instant(rs.getLong(5)));

    static final RowMapper<DefinitionChange> DEFINITION_CHANGE = (rs, n) -> new DefinitionChange(
            rs.getString(1),
            rs.getLong(2),
            rs.getString(3),
            rs.getString(4),
            Micros.instant(rs.getLong(5)),
            rs.getString(6));

    /** The first column as bytes: a payload, or null. */
    static final RowMapper<byte[]> BYTES = (rs, n) -> rs.getBytes(1);

    private static Integer nullableInt(ResultSet rs, int column) throws SQLException {
        int v = rs.getInt(column);
        return rs.wasNull() ? null : v;
    }

    private static Instant nullableInstant(ResultSet rs, int column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : Micros.instant(v);
    }

    private static InstanceState state(String name) {
        return name == null ? null : InstanceState.valueOf(name);
    }
}
