package io.ax.docs.jobs;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import io.ax.core.AxResult;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import org.springframework.stereotype.Component;

/** The jobs guide's workflow: one root, a fan-out to two steps, a fan-in to the last. */
@Component
public class OrderExport {

    /** Where the loaded files go. */
    public interface Warehouse {
        void load(String runId, String cleaned, String enriched);
    }

    private final Warehouse warehouse;

    public OrderExport(Warehouse warehouse) {
        this.warehouse = warehouse;
    }

    // tag::workflow[]
    // the root: each fire of its cron starts a run
    @AxJob(name = "extract", cron = "0 0 2 * * ?", timeout = "10m")
    public AxResult extract(AxContext context) {
        LocalDate day = LocalDate.ofInstant(context.scheduledTime(), ZoneOffset.UTC);
        return AxResult.success("orders-" + day + ".csv"); // the message is handed downstream
    }

    // fan-out: clean and enrich both wait for extract
    @AxJob(name = "clean", dependsOn = "extract", timeout = "5m")
    public AxResult clean(AxContext context) {
        return AxResult.success(context.upstreamResults().get("extract") + ".clean");
    }

    @AxJob(name = "enrich", dependsOn = "extract", timeout = "5m")
    public AxResult enrich(AxContext context) {
        return AxResult.success(context.upstreamResults().get("extract") + ".enriched");
    }

    // fan-in: load waits for both
    @AxJob(
            name = "load",
            dependsOn = {"clean", "enrich"},
            timeout = "5m")
    public void load(AxContext context) {
        Map<String, String> results = context.upstreamResults(); // {clean=..., enrich=...}
        warehouse.load(context.runId(), results.get("clean"), results.get("enrich"));
    }
    // end::workflow[]
}
