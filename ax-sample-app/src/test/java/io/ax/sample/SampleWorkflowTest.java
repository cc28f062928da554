package io.ax.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AuditEntry;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.WorkflowRun;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/** The sample's three-step workflow: export, then compress, then upload, each handing its result on. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = "spring.datasource.url=jdbc:h2:mem:sample-workflow;DB_CLOSE_DELAY=-1")
class SampleWorkflowTest {

    private static final Duration BOUND = Duration.ofSeconds(30);

    @Autowired
    AxEngine engine;

    @Test
    void aRunOfTheExportGoesThroughItsThreeStepsHandingEachResultOn() {
        String runId = engine.triggerNow("export");

        await().atMost(BOUND)
                .until(() -> engine.recentRuns("export", 5).stream()
                        .anyMatch(r -> r.runId().equals(runId) && r.state().equals("succeeded")));

        WorkflowRun run = engine.recentRuns("export", 5).stream()
                .filter(r -> r.runId().equals(runId))
                .findFirst()
                .orElseThrow();
        assertThat(run.steps().keySet()).containsExactly("export", "compress", "upload");
        TaskInstance upload =
                engine.store().findByKey("upload", TaskInstance.runKey(runId)).orElseThrow();
        List<AuditEntry> trail = engine.store().auditTrail(upload.id());
        assertThat(trail.get(trail.size() - 1).to()).isEqualTo(InstanceState.SUCCESS);
        assertThat(trail.get(trail.size() - 1).reason()).matches("uploaded orders-\\d+\\.csv\\.gz");
    }
}
