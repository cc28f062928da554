package io.ax.docs.jobs;

import io.ax.core.AxScheduler;
import io.ax.core.AxTask;
import io.ax.core.TaskDefinition;
import io.ax.core.trigger.CronTrigger;
import java.time.Duration;
import java.time.ZoneId;
import org.springframework.stereotype.Service;

/** The jobs guide's tasks registered while the application runs. */
@Service
public class RegionSync {

    private final AxScheduler scheduler;

    public RegionSync(AxScheduler scheduler) {
        this.scheduler = scheduler;
    }

    // tag::runtime[]
    public TaskDefinition addRegion(String region) {
        return scheduler.register(TaskDefinition.of(sync(region, "0 */15 * * * ?"))); // version 1, on every node
    }

    public TaskDefinition syncHourly(String region) {
        return scheduler.update(TaskDefinition.of(sync(region, "@hourly"))); // version 2, from its next fire time
    }

    public void removeRegion(String region) {
        scheduler.unregister("sync-" + region);
    }

    private static AxTask sync(String region, String cron) {
        return AxTask.builder("sync-" + region)
                .type("HTTP")
                .target("https://api.example.com/v1/sync/" + region)
                .trigger(CronTrigger.of(cron, ZoneId.of("Europe/Berlin"))) // a bad cron throws here
                .timeout(Duration.ofSeconds(30))
                .build();
    }
    // end::runtime[]
}
