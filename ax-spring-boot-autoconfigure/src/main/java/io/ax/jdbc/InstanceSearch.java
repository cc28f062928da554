package io.ax.jdbc;

import io.ax.core.store.InstanceQuery;
import java.util.ArrayList;
import java.util.List;

/**
 * The statement of an operator's instance search ({@link JdbcInstanceStore#search}): only the criteria given become
 * conditions, each a bound parameter. A task or a state alone is served by the (task_name, scheduled_us) or (state,
 * scheduled_us, id) index in the order asked for; the page is bounded by the caller (the endpoint's page size).
 */
final class InstanceSearch {

    private final String sql;
    private final List<Object> args = new ArrayList<>();

    InstanceSearch(String tablePrefix, InstanceQuery query) {
        StringBuilder where = new StringBuilder();
        if (query.taskName() != null) {
            condition(where, "task_name = ?", query.taskName());
        }
        if (query.state() != null) {
            condition(where, "state = ?", query.state().name());
        }
        if (query.from() != null) {
            condition(where, "scheduled_us >= ?", Micros.above(query.from()));
        }
        if (query.to() != null) {
            condition(where, "scheduled_us < ?", Micros.above(query.to()));
        }
        sql = "SELECT " + Sql.INSTANCE_COLUMNS + " FROM " + tablePrefix + "instance" + where
                + " ORDER BY scheduled_us DESC, id DESC LIMIT ? OFFSET ?";
        args.add(query.limit());
        args.add(query.offset());
    }

    private void condition(StringBuilder where, String condition, Object arg) {
        where.append(where.length() == 0 ? " WHERE " : " AND ").append(condition);
        args.add(arg);
    }

    String sql() {
        return sql;
    }

    Object[] args() {
        return args.toArray();
    }
}
