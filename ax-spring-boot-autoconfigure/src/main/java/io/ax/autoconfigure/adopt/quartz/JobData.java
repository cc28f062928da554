package io.ax.autoconfigure.adopt.quartz;

import io.ax.core.AxContext;
import io.ax.core.AxException;
import io.ax.core.store.TaskDataStore;
import io.ax.core.store.TaskDataStore.TaskData;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.quartz.JobDataMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data maps of jobs with {@code @PersistJobDataAfterExecution}, kept in the store's task data between runs,
 * whichever node runs the next: read at the start of a run, written back after a successful one that changed it,
 * conditional on the version the run read. A run whose write loses to another instance's (overlapping runs of a job
 * that allows them) fails: its changes are not kept, and Quartz would have kept one of the two maps at random. A
 * run that loses to an attempt of its own instance (a retry after its node was taken for dead) succeeds: that fire's
 * map is kept. Thread-safe.
 */
final class JobData {

    private static final Logger LOG = LoggerFactory.getLogger(JobData.class);

    /**
     * What a run starts with: the map handed to its job (which the job may change), a copy of its entries as read,
     * and the version it was read at (0: none stored yet, the job's own map).
     */
    record Read(JobDataMap map, Map<String, Object> before, long version) {

        static Read of(Map<String, ?> entries, long version) {
            JobDataMap map = new JobDataMap();
            map.putAll(entries);
            map.clearDirtyFlag();
            return new Read(map, new java.util.HashMap<>(map.getWrappedMap()), version);
        }
    }

    /** The store's task data; null when the store keeps none. */
    private final TaskDataStore store;

    JobData(TaskDataStore store) {
        this.store = store;
    }

    boolean available() {
        return store != null;
    }

    /** The map a run of the job starts with: the stored one, or the job's own before the first write. */
    Read read(AdoptedJob job) {
        Optional<TaskData> stored = job.dataKey() == null ? Optional.empty() : store().read(job.dataKey());
        if (stored.isEmpty()) {
            return Read.of(job.job().getJobDataMap().getWrappedMap(), 0);
        }
        return Read.of(JobDataCodec.decode(stored.get().value()), stored.get().version());
    }

    /**
     * After a successful run: writes the job's map back when it changed, conditional on the version the run read.
     *
     * @throws AxException when another instance wrote the map meanwhile, or it holds a value that cannot be kept
     */
    void writeBack(AdoptedJob job, Read read, JobDataMap after, AxContext context, Instant now) {
        if (job.dataKey() == null || read.before().equals(after.getWrappedMap())) {
            return; // unchanged: nothing to keep
        }
        byte[] value;
        try {
            value = JobDataCodec.encode(after.getWrappedMap());
        } catch (IllegalArgumentException e) {
            throw new AxException("The data map of Quartz job " + job.job().getKey() + " cannot be kept: "
                    + e.getMessage() + "; this run's changes were not kept");
        }
        TaskDataStore.Writer writer = new TaskDataStore.Writer(context.instanceId(), context.fencingToken(), now);
        if (store().write(job.dataKey(), read.version(), value, writer)) {
            return;
        }
        TaskData winner = store().read(job.dataKey()).orElseThrow();
        if (winner.writer().instanceId().equals(context.instanceId())) {
            LOG.info(
                    "Quartz job {}: another attempt of instance {} kept its data map first (version {}); this"
                            + " attempt's is the same fire's and is not written again",
                    job.job().getKey(),
                    context.instanceId(),
                    winner.version());
            return;
        }
        throw new AxException("The data map of Quartz job " + job.job().getKey() + " was written by instance "
                + winner.writer().instanceId() + " (version " + winner.version() + ") while this run ran from"
                + " version " + read.version() + "; this run's changes were not kept. Runs of a job that keeps its"
                + " data should not overlap: annotate it with @DisallowConcurrentExecution");
    }

    /** Who a map taken over from Quartz's own job store is written by, in place of an attempt. */
    static final String FROM_QUARTZ = "quartz-job-store";

    /**
     * Takes over the map a Quartz job store kept for the job, when AX keeps none for it yet: its first value is
     * Quartz's. A node that seeds it at the same time as another loses the write, and the map is the same.
     *
     * @return whether this call wrote it
     * @throws IllegalArgumentException naming an entry whose value cannot be kept
     */
    boolean seed(AdoptedJob job, Map<String, Object> kept, Instant now) {
        if (job.dataKey() == null || store().read(job.dataKey()).isPresent()) {
            return false;
        }
        byte[] value = JobDataCodec.encode(kept);
        return store().write(job.dataKey(), 0, value, new TaskDataStore.Writer(FROM_QUARTZ, 0, now));
    }

    private TaskDataStore store() {
        if (store == null) {
            throw new AxException("AX's store keeps no task data, where a Quartz job's data map is kept");
        }
        return store;
    }
}
