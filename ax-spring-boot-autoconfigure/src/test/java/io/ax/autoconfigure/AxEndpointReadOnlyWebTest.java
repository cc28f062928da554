package io.ax.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.AxJob;
import io.ax.core.InstanceState;
import io.ax.core.engine.AxEngine;
import java.util.EnumSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.util.ClassUtils;

/**
 * The {@code ax} endpoint exposed as most applications expose it, without Spring Security and without granting it
 * more access: everyone may read, nobody may trigger, pause, resume, cancel or replay.
 */
@SpringBootTest(
        classes = AxEndpointReadOnlyWebTest.App.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "management.endpoints.web.exposure.include=ax")
class AxEndpointReadOnlyWebTest {

    @LocalServerPort
    int port;

    @Autowired
    AxEngine engine;

    private Http http;

    @BeforeEach
    void client() {
        http = new Http(port);
    }

    @Test
    void noSecurityLibraryGuardsThisApplication() {
        assertThat(ClassUtils.isPresent("org.springframework.security.core.Authentication", null))
                .isFalse();
    }

    @Test
    void readsAnswer() {
        assertThat(http.get("/actuator/ax").status()).isEqualTo(200);
        assertThat(http.get("/actuator/ax/tasks").status()).isEqualTo(200);
        assertThat(http.get("/actuator/ax/tasks/handler").status()).isEqualTo(200);
        assertThat(http.get("/actuator/ax/instances?state=DEAD").status()).isEqualTo(200);
        assertThat(http.get("/actuator/ax/dead-letters").status()).isEqualTo(200);
    }

    @Test
    void writesAreRefusedAndChangeNothing() {
        String waiting = engine.schedule("handler", java.time.Duration.ofHours(1), null);

        for (String action : new String[] {"trigger", "pause", "resume"}) {
            assertThat(http.post("/actuator/ax/tasks/handler/" + action).status())
                    .as(action)
                    .isEqualTo(404);
        }
        assertThat(http.post("/actuator/ax/quartz-import").status())
                .as("a GET is mapped to this path, the write is not")
                .isEqualTo(405);
        assertThat(http.post("/actuator/ax/instances/" + waiting + "/cancel").status())
                .isEqualTo(404);
        assertThat(http.post("/actuator/ax/dead-letters/" + waiting + "/replay").status())
                .isEqualTo(404);
        assertThat(http.delete("/actuator/ax/instances/" + waiting).status())
                .as("a GET is mapped to this path, a DELETE is not")
                .isEqualTo(405);

        assertThat(engine.isPaused("handler")).isFalse();
        assertThat(engine.find(waiting).orElseThrow().instance().state()).isEqualTo(InstanceState.SCHEDULED);
        assertThat(engine.store().findByStates(EnumSet.allOf(InstanceState.class), 100))
                .as("no instance but the one scheduled here")
                .hasSize(1);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Jobs.class)
    static class App {}

    static class Jobs {
        @AxJob(name = "handler", timeout = "5s")
        void handler() {}
    }
}
