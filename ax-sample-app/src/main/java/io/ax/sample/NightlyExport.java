package io.ax.sample;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import io.ax.core.AxResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/**
 * A three-step workflow: {@code export} (the root, on a cron) starts a run; {@code compress} runs once it succeeded,
 * {@code upload} once {@code compress} succeeded, each reading the run id and its upstream's result from the
 * context. See {@code /actuator/ax/workflows}.
 */
@Component
@Profile("!no-demo-tasks") // the fault tests count every instance: a fire due tonight never ends within their bounds
public class NightlyExport {

    private static final Logger LOG = LoggerFactory.getLogger(NightlyExport.class);

    @AxJob(name = "export", cron = "${sample.export.cron:0 0 2 * * ?}", timeout = "1m")
    public AxResult export(AxContext context) {
        LOG.info("run {}: exporting the orders", context.runId());
        return AxResult.success("orders-" + context.scheduledTime().toEpochMilli() + ".csv");
    }

    @AxJob(name = "compress", dependsOn = "export", timeout = "1m")
    public AxResult compress(AxContext context) {
        String file = context.upstreamResults().get("export");
        LOG.info("run {}: compressing {}", context.runId(), file);
        return AxResult.success(file + ".gz");
    }

    @AxJob(name = "upload", dependsOn = "compress", timeout = "1m")
    public AxResult upload(AxContext context) {
        String file = context.upstreamResults().get("compress");
        LOG.info("run {}: uploading {}", context.runId(), file);
        return AxResult.success("uploaded " + file);
    }
}
