package io.ax.docs.migrating;

import io.ax.core.ScheduleRequest;
import io.ax.core.TaskInstance;
import io.ax.core.engine.AxEngine;
import io.ax.docs.migrating.MigratedJobs.CloseOrder;
import java.time.Duration;
import org.springframework.stereotype.Service;

/** The migration guide's "after": {@link DbSchedulerCheckout} on AX. */
@Service
public class MigratedCheckout {

    private final AxEngine engine;

    public MigratedCheckout(AxEngine engine) {
        this.engine = engine;
    }

    // tag::after-schedule[]
    public String orderOpened(long orderId) {
        return engine.schedule(ScheduleRequest.of("close-unpaid-order")
                .after(Duration.ofMinutes(30))
                .payload(new CloseOrder(orderId))
                .key("order-" + orderId)); // db-scheduler's instance id: the same key again changes nothing
    }

    public boolean orderPaid(long orderId) {
        return engine.store()
                .findByKey("close-unpaid-order", "order-" + orderId)
                .map(TaskInstance::id)
                .map(engine::cancel) // false if the close is running or over: never throws
                .orElse(false);
    }
    // end::after-schedule[]
}
