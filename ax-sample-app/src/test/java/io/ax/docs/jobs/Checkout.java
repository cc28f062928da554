package io.ax.docs.jobs;

import io.ax.core.AxScheduler;
import io.ax.core.InstanceState;
import io.ax.core.ScheduleRequest;
import io.ax.docs.jobs.ShopJobs.CloseOrder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Service;

/** The jobs guide's caller of {@link AxScheduler}: schedules, moves, finds and cancels delayed executions. */
@Service
public class Checkout {

    private final AxScheduler scheduler;

    public Checkout(AxScheduler scheduler) {
        this.scheduler = scheduler;
    }

    // tag::schedule[]
    public String orderOpened(long orderId) {
        return scheduler.schedule(ScheduleRequest.of("closeUnpaidOrder")
                .after(Duration.ofMinutes(30))
                .payload(new CloseOrder(orderId))
                .key("order-" + orderId + ":close")); // optional: the same key again returns this instance
    }

    public void orderPaid(String closeId) {
        scheduler.cancel(closeId); // false when the close has started or ended already
    }
    // end::schedule[]

    // tag::manage[]
    public boolean extendPaymentWindow(String closeId, Instant newDeadline) {
        return scheduler.reschedule(closeId, newDeadline); // id, payload and key stay
    }

    public Optional<InstanceState> closeState(String closeId) {
        return scheduler.find(closeId).map(details -> details.instance().state());
    }
    // end::manage[]

    // tag::schedule-all[]
    public List<String> remindAll(List<String> customerIds, Instant at) {
        List<ScheduleRequest> requests = customerIds.stream()
                .map(customer -> ScheduleRequest.of("sendReminder")
                        .at(at)
                        .payload(customer)
                        .key("reminder-" + customer))
                .toList();
        return scheduler.scheduleAll(requests); // ids in the order of the requests
    }
    // end::schedule-all[]
}
