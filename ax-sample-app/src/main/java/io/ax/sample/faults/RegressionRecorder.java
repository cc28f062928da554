package io.ax.sample.faults;

import io.ax.core.AxStoreRegressionEvent;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;

/**
 * Writes each {@link AxStoreRegressionEvent} this node publishes to the fault runner's table {@code faults_said}
 * (source {@code event}), with every instance it names: the ERROR line names only the first few, and the checker
 * holds a violation in a lost window against AX only when no report of AX named its instance. The time is the
 * witness database's, as the runner's own records are. Its connection goes straight to the witness, as the {@link
 * RunRecorder}'s do; a failed write is logged (the ERROR line in the node's log still counts).
 */
final class RegressionRecorder {

    private static final Logger LOG = LoggerFactory.getLogger(RegressionRecorder.class);

    private static final String WRITE = "INSERT INTO faults_said (source, node, log_file, at_us, line, instance_ids)"
            + " VALUES ('event', ?, '', CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000 AS BIGINT), ?, ?)";

    private final String url;
    private final String user;
    private final String password;

    RegressionRecorder(String url, String user, String password) {
        this.url = url;
        this.user = user;
        this.password = password;
    }

    @EventListener
    void record(AxStoreRegressionEvent event) {
        String line = String.join("; ", event.findings());
        try (Connection c = DriverManager.getConnection(url, user, password);
                PreparedStatement s = c.prepareStatement(WRITE)) {
            s.setString(1, event.nodeId());
            s.setString(2, line.length() > 4000 ? line.substring(0, 4000) : line);
            s.setString(3, String.join(",", event.affectedInstances()));
            s.executeUpdate();
        } catch (SQLException e) {
            LOG.warn("The store regression this node found could not be written to faults_said: {}", String.valueOf(e));
        }
    }
}
