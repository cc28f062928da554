package io.ax.docs;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The application's beans that the guides' configured tasks name as their targets ({@code beanName.methodName}). */
@Configuration(proxyBeanMethods = false)
class DocsBeans {

    /** {@code cleanupService.purge}: a LOCAL task's target in the jobs guide. */
    @Bean
    CleanupService cleanupService() {
        return new CleanupService();
    }

    static class CleanupService {
        public void purge() {}
    }

    /** {@code exportService.export}: the root of a configured workflow in the jobs guide. */
    @Bean
    ExportService exportService() {
        return new ExportService();
    }

    static class ExportService {
        public void export() {}
    }

    /** The jobs guide's executor of its own, which runs its tasks of type NOTIFY. */
    @Bean
    io.ax.docs.jobs.NotifyExecutor notifyExecutor() {
        return new io.ax.docs.jobs.NotifyExecutor((channel, text) -> true);
    }
}
