package io.ax.bench.cluster;

/**
 * Where each system of the {@code cost} scenario keeps its executions, and how the scenario counts those that
 * finished: AX in schema {@value #AX_SCHEMA} (its own migrations, the part's table prefix), db-scheduler in {@link
 * DbSchedulerCluster#SCHEMA}. The counts go through the {@link CostProbe}, whose statements are left out of what is
 * measured.
 */
final class CostSchema {

    static final String AX_SCHEMA = "bench_cost";

    private CostSchema() {}

    static String schema(ClusterSystem system) {
        return system instanceof AxCluster ? AX_SCHEMA : DbSchedulerCluster.SCHEMA;
    }

    /** The table of the executions: AX's {@code <prefix>instance}, db-scheduler's {@code scheduled_tasks}. */
    static String instanceTable(ClusterSystem system, ClusterSystem.Part part) {
        return system instanceof AxCluster ? part.prefix + "instance" : "scheduled_tasks";
    }

    /** AX's audit table; null for db-scheduler, which keeps none. */
    static String auditTable(ClusterSystem system, ClusterSystem.Part part) {
        return system instanceof AxCluster ? part.prefix + "audit" : null;
    }

    /** Burst executions done in the database: AX's SUCCESS rows; db-scheduler: of {@code count}, the rows gone. */
    static long burstDone(CostProbe probe, ClusterSystem system, int count) throws Exception {
        if (system instanceof AxCluster ax) {
            return successes(probe, ax);
        }
        return count
                - probe.count("SELECT COUNT(*) FROM " + DbSchedulerCluster.SCHEMA + ".scheduled_tasks"
                        + " WHERE task_name = '" + DbSchedulerNode.BURST_TASK + "'");
    }

    /** Recurring executions finished so far: AX's SUCCESS rows; db-scheduler: its nodes' handlers' runs. */
    static long recurringDone(CostProbe probe, ClusterSystem system, NodeGroup group) throws Exception {
        if (system instanceof AxCluster ax) {
            return successes(probe, ax);
        }
        return group.executions();
    }

    private static long successes(CostProbe probe, AxCluster ax) throws Exception {
        return probe.count(
                "SELECT COUNT(*) FROM " + AX_SCHEMA + "." + ax.prefix() + "instance WHERE state = 'SUCCESS'");
    }
}
