package io.ax.executor;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.AxContext;
import io.ax.core.AxTask;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TemplatesTest {

    private static AxContext context(String runId) {
        return new AxContext() {
            @Override
            public String taskName() {
                return "notify";
            }

            @Override
            public String instanceId() {
                return "i-1";
            }

            @Override
            public int attempt() {
                return 2;
            }

            @Override
            public Instant scheduledTime() {
                return Instant.parse("2026-01-01T00:00:00Z");
            }

            @Override
            public String nodeId() {
                return "n";
            }

            @Override
            public Map<String, String> params() {
                return Map.of();
            }

            @Override
            public String runId() {
                return runId;
            }
        };
    }

    @Test
    void aWorkflowStepsRunIdIsAVariableAndEmptyOutsideWorkflows() {
        AxTask task = AxTask.builder("notify").params(Map.of("region", "eu")).build();
        String template = "/runs/${runId}/${region}/${attempt}";

        assertThat(Templates.unknownVariable(template, task.params())).isNull();
        assertThat(Templates.render(template, Templates.values(task, context("r-42")), v -> v))
                .isEqualTo("/runs/r-42/eu/2");
        assertThat(Templates.render(template, Templates.values(task, context(null)), v -> v))
                .isEqualTo("/runs//eu/2");
    }
}
