package io.ax.core.engine.definitions;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.AxTask;
import org.junit.jupiter.api.Test;

/**
 * A stored definition keeps the task's priority and whether it is transactional; a text written before either reads
 * as priority 0, not transactional.
 */
class TaskDefinitionTextTest {

    @Test
    void aPriorityIsStoredAndReadBackAndZeroLeavesTheTextAsItWas() {
        AxTask urgent =
                AxTask.builder("urgent").target("jobs.urgent").priority(-7).build();
        assertThat(TaskDefinitionText.read(TaskDefinitionText.write(urgent))).isEqualTo(urgent);

        AxTask plain = AxTask.builder("plain").target("jobs.plain").build();
        String text = TaskDefinitionText.write(plain);
        assertThat(text).doesNotContain("priority").doesNotContain("transactional");
        assertThat(TaskDefinitionText.read(text).priority()).isZero();
        assertThat(TaskDefinitionText.read(text).transactional()).isFalse();
    }
}
