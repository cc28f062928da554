package io.ax.docs.migrating;

import static io.ax.docs.migrating.DbSchedulerTasks.CLOSE_ORDER;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.TaskInstanceId;
import io.ax.docs.migrating.DbSchedulerTasks.CloseOrder;
import java.time.Duration;
import java.time.InstantSource;

/** The migration guide's "before": a service that schedules and cancels db-scheduler executions. */
public class DbSchedulerCheckout {

    private final SchedulerClient scheduler;
    private final InstantSource clock;

    public DbSchedulerCheckout(SchedulerClient scheduler, InstantSource clock) {
        this.scheduler = scheduler;
        this.clock = clock;
    }

    // tag::before-schedule[]
    public void orderOpened(long orderId) {
        scheduler.scheduleIfNotExists(CLOSE_ORDER
                .instance("order-" + orderId)
                .data(new CloseOrder(orderId))
                .scheduledTo(clock.instant().plus(Duration.ofMinutes(30))));
    }

    public void orderPaid(long orderId) {
        TaskInstanceId close = CLOSE_ORDER.instanceId("order-" + orderId);
        if (scheduler.getScheduledExecution(close).isPresent()) {
            scheduler.cancel(close); // throws if the close is running or gone meanwhile
        }
    }
    // end::before-schedule[]
}
