package io.ax.docs.jobs;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import io.ax.core.AxScheduler;
import java.util.Map;
import org.springframework.stereotype.Component;

/** The jobs guide's on-demand task, with parameters, and how to run it. */
@Component
public class IndexJobs {

    /** The search index the job rebuilds. */
    public interface SearchIndex {
        void rebuild(String region, boolean full);
    }

    private final SearchIndex index;
    private final AxScheduler scheduler;

    public IndexJobs(SearchIndex index, AxScheduler scheduler) {
        this.index = index;
        this.scheduler = scheduler;
    }

    // tag::on-demand[]
    @AxJob(
            name = "rebuildIndex",
            params = {"region=eu", "full=false"},
            timeout = "15m")
    public void rebuildIndex(AxContext context) {
        Map<String, String> params = context.params();
        index.rebuild(params.get("region"), Boolean.parseBoolean(params.get("full")));
    }
    // end::on-demand[]

    String rebuildEverything() {
        // tag::trigger-now[]
        String eu = scheduler.triggerNow("rebuildIndex"); // with the task's own parameters
        String us = scheduler.triggerNow("rebuildIndex", Map.of("region", "us", "full", "true")); // this run only
        // end::trigger-now[]
        return eu + "," + us;
    }
}
