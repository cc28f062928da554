package io.ax.autoconfigure.adopt.quartz;

import io.ax.core.AxTask;
import java.util.Objects;
import org.quartz.Calendar;
import org.quartz.JobDetail;
import org.quartz.spi.OperableTrigger;

/**
 * A Quartz job as AX runs it: the task made of one of its triggers (or of the job alone, run on demand), and the
 * Quartz objects each run is made of.
 *
 * @param task the task AX runs
 * @param origin what it was adopted from, for people: {@code Quartz trigger DEFAULT.nightly of job DEFAULT.report}
 * @param job the job's detail as defined, its data map included
 * @param trigger a copy of the trigger, without the job detail that Spring's trigger factory beans keep in its data
 *     map; null for a durable job adopted without one
 * @param calendar the calendar the trigger names, or null
 * @param dataKey the key its data map is kept under between runs ({@code PersistJobDataAfterExecution}); null when it
 *     keeps none
 */
record AdoptedJob(
        AxTask task, String origin, JobDetail job, OperableTrigger trigger, Calendar calendar, String dataKey) {

    AdoptedJob {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(job, "job");
    }
}
