package io.ax.bench.cluster;

import java.time.Instant;
import java.util.List;

/**
 * The parent's side of one system under test: its tables, the rows it writes before the nodes run them, and how it
 * tells that they are done. The nodes themselves run in their own JVMs ({@link ClusterNode}).
 */
interface ClusterSystem extends AutoCloseable {

    /** The column name. */
    String name();

    /** What the nodes of this system are told: {@code --system}, schema, table prefix. */
    List<String> nodeArgs();

    /** Drops this system's tables for {@code part} and creates them empty. */
    void recreate(Part part) throws Exception;

    /**
     * Writes {@code count} one-shot executions of the burst task, numbered from {@code first}, all due at {@code
     * due}, then analyzes.
     */
    void writeBurst(int first, int count, Instant due) throws Exception;

    /** Removes a drained warm-up burst's rows, so that the measured burst starts from empty tables. */
    void clearBurst() throws Exception;

    /** How many of the burst's executions have not finished (AX: are not SUCCESS; db-scheduler: rows left). */
    long burstLeft(int count) throws Exception;

    /** Writes what the recurring tasks need before the nodes start (db-scheduler: one row per task). */
    void prepareRecurring(int tasks) throws Exception;

    /** Gathers planner statistics for this system's tables. */
    void analyze() throws Exception;

    /** Drops this system's tables for {@code part}. */
    void drop(Part part) throws Exception;

    /** The parts of the scenario, each with tables of its own. */
    enum Part {
        BURST("axb_"),
        RECURRING("axr_"),
        FAILOVER("axf_"),
        /** Partition moves and takeovers (AX only). */
        PARTITIONS("axp_");

        /** AX's table prefix for this part. */
        final String prefix;

        Part(String prefix) {
            this.prefix = prefix;
        }
    }
}
