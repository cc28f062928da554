package io.ax.sample.faults;

import io.ax.autoconfigure.AxProperties;
import io.ax.core.engine.AttemptTracer;
import io.ax.core.engine.AxEngine;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

/**
 * The recorders of the fault runner's nodes. The run recorder is the node's {@link AttemptTracer}, so it takes the
 * place of the Micrometer one under this profile. Its pool is not a {@code DataSource} bean: one would take the
 * application's own DataSource's place. The limits recorder writes, once the node is ready (every task registered),
 * the cluster-wide limits its engine applies; the regression recorder, each store regression the engine reports.
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

    @Bean
    LimitsRecorder faultsLimitsRecorder(
            @Value("${faults.record.url}") String url,
            @Value("${faults.record.username}") String user,
            @Value("${faults.record.password:}") String password) {
        return new LimitsRecorder(url, user, password);
    }

    @Bean
    RegressionRecorder faultsRegressionRecorder(
            @Value("${faults.record.url}") String url,
            @Value("${faults.record.username}") String user,
            @Value("${faults.record.password:}") String password) {
        return new RegressionRecorder(url, user, password);
    }

    @Bean
    ApplicationListener<ApplicationReadyEvent> faultsLimitsWhenReady(
            LimitsRecorder recorder, AxEngine engine, AxProperties properties) {
        return ready -> recorder.record(LimitsRecorder.of(engine.tasks(), group -> {
            AxProperties.Pool pool = properties.getPools().get(group);
            return pool == null ? 0 : pool.getClusterLimit();
        }));
    }
}
