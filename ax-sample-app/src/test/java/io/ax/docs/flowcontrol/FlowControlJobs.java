package io.ax.docs.flowcontrol;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import io.ax.core.AxScheduler;
import io.ax.core.ScheduleRequest;
import java.time.Duration;

/** The flow-control guide's examples: priorities, limits across the cluster and rates, on tasks of a shop. */
class FlowControlJobs {

    /** What the handlers call: the application's own services. */
    interface Shop {
        void report(String customer);

        void exportAll();

        void export(String key);

        void charge(String key);

        void refund(String key);

        void rebuildIndex(String region);

        void syncPartner(String key);
    }

    private final Shop shop;
    private final AxScheduler scheduler;

    FlowControlJobs(Shop shop, AxScheduler scheduler) {
        this.shop = shop;
        this.scheduler = scheduler;
    }

    // tag::priorities[]
    @AxJob(name = "customer-report", group = "reports", timeout = "5m", priority = 50) // before the default 0
    void customerReport(AxContext context) {
        shop.report(context.key());
    }

    @AxJob(name = "nightly-export", group = "reports", cron = "0 0 2 * * ?", timeout = "1h", priority = -10)
    void nightlyExport() {
        shop.exportAll();
    }
    // end::priorities[]

    void reportNow(String customer) {
        // tag::priority-of-one-execution[]
        scheduler.schedule(ScheduleRequest.of("customer-report")
                .after(Duration.ZERO)
                .key(customer)
                .priority(100)); // this one before the others of its task
        // end::priority-of-one-execution[]
    }

    // tag::limits[]
    @AxJob(name = "export", timeout = "10m", maxConcurrent = 2) // at most 2 attempts at once, on all nodes
    void export(AxContext context) {
        shop.export(context.key());
    }

    @AxJob(name = "charge", timeout = "30s", mutex = "${keyPrefix}") // one attempt per customer at a time
    void charge(AxContext context) {
        shop.charge(context.key());
    }

    @AxJob(name = "refund", timeout = "30s", mutex = "${keyPrefix}") // shares the customer's key with charge
    void refund(AxContext context) {
        shop.refund(context.key());
    }

    @AxJob(name = "rebuild-index", timeout = "10m", params = "region=eu", mutex = "index-${region}")
    void rebuildIndex(AxContext context) {
        shop.rebuildIndex(context.params().get("region"));
    }
    // end::limits[]

    void chargeAndRefund() {
        // tag::mutex-keys[]
        scheduler.schedule(ScheduleRequest.of("charge").after(Duration.ZERO).key("customer-7:charge-1042"));
        scheduler.schedule(ScheduleRequest.of("refund").after(Duration.ZERO).key("customer-7:refund-88"));
        // end::mutex-keys[]
    }

    // tag::rate[]
    @AxJob(name = "sync-partner", group = "partner-api", timeout = "30s", rate = "100/1m") // 100 starts a minute
    void syncPartner(AxContext context) {
        shop.syncPartner(context.key());
    }
    // end::rate[]
}
