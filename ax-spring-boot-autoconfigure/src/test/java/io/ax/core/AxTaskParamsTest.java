package io.ax.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A task's parameters keep the order they were declared in (a form built from them keeps it), and cannot change. */
class AxTaskParamsTest {

    @Test
    void parametersKeepTheirDeclaredOrder() {
        Map<String, String> declared = new LinkedHashMap<>();
        for (int i = 20; i > 0; i--) {
            declared.put("p" + i, "v" + i);
        }
        AxTask task =
                AxTask.builder("report").target("x.report").params(declared).build();

        assertThat(task.params().keySet()).containsExactlyElementsOf(declared.keySet());
        assertThat(task.params()).isEqualTo(declared);
        assertThatThrownBy(() -> task.params().put("p0", "v0")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aParameterWithoutAValueIsRefusedNamingIt() {
        Map<String, String> declared = new HashMap<>();
        declared.put("region", null);

        assertThatThrownBy(() -> AxTask.builder("report")
                        .target("x.report")
                        .params(declared)
                        .build())
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("parameter 'region' of task report");
    }
}
