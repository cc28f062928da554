package io.ax.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** IDEs autocomplete and document every ax.* property from the metadata the configuration processor writes. */
class ConfigurationMetadataTest {

    @Test
    void everyPropertyIsDescribedInTheGeneratedMetadata() throws Exception {
        String json;
        try (InputStream in = AxProperties.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("generated configuration metadata").isNotNull();
            json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        for (String property : new String[] {
            "ax.enabled",
            "ax.node-id",
            "ax.default-zone",
            "ax.wheel.tick",
            "ax.pools",
            "ax.dispatch.rejection-backoff",
            "ax.misfire.threshold",
            "ax.shutdown.await",
            "ax.memory.max-finished-instances",
            "ax.clock.jump-threshold",
            "ax.clock.pause",
            "ax.metrics.task-tag",
            "ax.health.max-backlog-age",
            "ax.health.backlog-status",
            "ax.retention.enabled",
            "ax.retention.finished",
            "ax.retention.dead",
            "ax.retention.interval",
            "ax.retention.batch-size",
            "ax.clock.cluster-offset",
            "ax.clock.offset-refresh",
            "ax.redis.enabled",
            "ax.redis.key-prefix",
            "ax.redis.retry",
            "ax.redis.lock.ttl",
            "ax.redis.lock.renew",
            "ax.cluster.lease-store",
            "ax.tasks",
            "ax.retry.times",
            "ax.retry.backoff",
            "ax.retry.base",
            "ax.retry.max",
            "ax.http.allowed-urls",
            "ax.http.max-recorded-body",
            "ax.http.connect-timeout",
            "ax.shell.enabled",
            "ax.shell.script-dir",
            "ax.shell.working-dir",
            "ax.shell.environment",
            "ax.shell.max-output",
            "ax.dashboard.enabled",
            "ax.dashboard.path",
            "ax.dashboard.write-role"
        }) {
            int at = json.indexOf("\"name\": \"" + property + "\"");
            assertThat(at).as(property).isNotNegative();
            int end = json.indexOf('}', at);
            assertThat(json.substring(at, end))
                    .as(property + " has a description")
                    .contains("\"description\"");
        }
    }
}
