package io.ax.sample;

import io.ax.test.jdbc.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The sample's nodes as child JVMs: {@link io.ax.test.jvm.ChildJvms} with the arguments that start the sample on
 * PostgreSQL and the queries its crash tests judge by.
 */
final class ChildJvms extends io.ax.test.jvm.ChildJvms {

    /**
     * The arguments that start the sample as node {@code nodeId} on {@code pg}, AX's tables under {@code prefix},
     * without its demo tasks and on a free port; {@code more} follow them.
     */
    static List<String> onPostgres(TestDatabase pg, String prefix, String nodeId, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "--spring.profiles.active=postgres,no-demo-tasks",
                "--spring.datasource.url=" + pg.url(),
                "--spring.datasource.username=" + pg.user(),
                "--spring.datasource.password=" + pg.password(),
                "--ax.jdbc.table-prefix=" + prefix,
                "--ax.node-id=" + nodeId,
                "--server.port=0"));
        args.addAll(List.of(more));
        return args;
    }

    /** The state of instance {@code id} in the tables with {@code prefix}. */
    static String state(JdbcTemplate db, String prefix, String id) {
        return db.queryForObject("SELECT state FROM " + prefix + "instance WHERE id = ?", String.class, id);
    }

    /** Instances in the tables with {@code prefix} that meet {@code condition}; 0 before the tables exist. */
    static int count(JdbcTemplate db, String prefix, String condition) {
        try {
            Integer n =
                    db.queryForObject("SELECT COUNT(*) FROM " + prefix + "instance WHERE " + condition, Integer.class);
            return n == null ? 0 : n;
        } catch (org.springframework.jdbc.BadSqlGrammarException notYetCreated) {
            return 0;
        }
    }
}
