package io.ax.docs.quickstart;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import org.springframework.stereotype.Component;

/** README's Quick start job, compiled here as the docs show it (the Quick start tests also build it in an app). */
// tag::job[]
@Component
class Reports {
    @AxJob(
            cron = "0 0/15 * * * ?",
            zone = "Europe/Berlin",
            timeout = "2m",
            retry = @AxJob.Retry(times = "3", base = "10s"))
    void refresh(AxContext context) {
        /* context.instanceId(), context.attempt(), context.scheduledTime() */
    }
}
// end::job[]
