package io.ax.sample.faults;

import io.ax.core.engine.AttemptTracer;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

/**
 * The recorder of the fault runner's nodes. It is the node's {@link AttemptTracer}, so it takes the place of the
 * Micrometer one under this profile. Its pool is not a {@code DataSource} bean: one would take the application's
 * own DataSource's place.
 */
@Configuration(proxyBeanMethods = false)
@Profile("faults")
class FaultsConfiguration {

    @Bean(destroyMethod = "close")
    AttemptTracer faultsRunRecorder(
            @Value("${faults.record.url}") String url,
            @Value("${faults.record.username}") String user,
            @Value("${faults.record.password:}") String password,
            @Value("${ax.node-id}") String node) {
        return new RunRecorder(url, user, password, node, 4);
    }
}
