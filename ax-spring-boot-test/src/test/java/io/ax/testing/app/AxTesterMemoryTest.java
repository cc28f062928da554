package io.ax.testing.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.InstanceStore;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/** The tester on the in-memory store: an application without a DataSource. */
@TestPropertySource(
        properties =
                "spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
class AxTesterMemoryTest extends AxTesterContract {

    @Autowired
    InstanceStore store;

    @Test
    void theInstancesAreInMemory() {
        assertThat(store).isInstanceOf(InMemoryInstanceStore.class);
    }
}
