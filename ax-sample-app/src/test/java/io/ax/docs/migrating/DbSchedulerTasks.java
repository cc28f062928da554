package io.ax.docs.migrating;

import com.github.kagkarlsson.scheduler.task.FailureHandler.ExponentialBackoffFailureHandler;
import com.github.kagkarlsson.scheduler.task.FailureHandler.MaxRetriesFailureHandler;
import com.github.kagkarlsson.scheduler.task.TaskDescriptor;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import com.github.kagkarlsson.scheduler.task.schedule.Schedules;
import java.io.Serializable;
import java.time.Duration;
import java.time.ZoneId;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The migration guide's "before": tasks as an application declares them for db-scheduler's Spring Boot starter, which
 * runs every {@code Task} bean. {@link DbSchedulerMigrationTest} runs them on db-scheduler itself.
 */
@Configuration(proxyBeanMethods = false)
public class DbSchedulerTasks {

    // tag::before-recurring[]
    @Bean
    RecurringTask<Void> purgeSessions(Sessions sessions) {
        return Tasks.recurring("purge-sessions", FixedDelay.ofMinutes(5))
                .execute((instance, context) -> sessions.purgeExpired());
    }

    @Bean
    RecurringTask<Void> dailyReport(Reports reports) {
        return Tasks.recurring("daily-report", Schedules.cron("0 30 6 * * MON-FRI", ZoneId.of("Europe/Berlin")))
                .execute((instance, context) -> reports.build(context.getExecution().executionTime));
    }
    // end::before-recurring[]

    // tag::before-one-time[]
    public record CloseOrder(long orderId) implements Serializable {}

    public static final TaskDescriptor<CloseOrder> CLOSE_ORDER =
            TaskDescriptor.of("close-unpaid-order", CloseOrder.class);

    @Bean
    OneTimeTask<CloseOrder> closeUnpaidOrder(Shop shop) {
        return Tasks.oneTime(CLOSE_ORDER)
                .onFailure(new MaxRetriesFailureHandler<>(
                        5, new ExponentialBackoffFailureHandler<>(Duration.ofSeconds(1), 2.0)))
                .execute((instance, context) ->
                        shop.closeIfStillOpen(instance.getData().orderId()));
    }
    // end::before-one-time[]
}
