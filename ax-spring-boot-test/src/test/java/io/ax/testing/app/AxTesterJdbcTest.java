package io.ax.testing.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.store.InstanceStore;
import io.ax.jdbc.JdbcInstanceStore;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The tester on the JDBC store, as most applications run: an embedded H2 database of this context's own. */
class AxTesterJdbcTest extends AxTesterContract {

    @Autowired
    InstanceStore store;

    @Test
    void theInstancesAreInTheDatabase() {
        assertThat(store).isInstanceOf(JdbcInstanceStore.class);
    }
}
