package io.ax.autoconfigure.adopt.quartz;

import io.ax.core.AxException;
import java.util.Objects;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.env.Environment;

/**
 * The import of the store Spring Boot's Quartz support keeps in the application's {@code DataSource}, its settings
 * read from {@code spring.quartz.*} where a call leaves them out; and the report logged, line by line, for operators.
 * Thread-safe.
 */
final class ApplicationQuartzImport implements QuartzImportOperation {

    private static final Logger LOG = LoggerFactory.getLogger(ApplicationQuartzImport.class);
    private static final String QUARTZ = "spring.quartz.properties.org.quartz.";

    private final QuartzStoreImport imports;
    private final Supplier<DataSource> dataSource;
    private final Environment environment;

    /**
     * @param dataSource the application's single DataSource; gives null when it has none, or several
     */
    ApplicationQuartzImport(QuartzStoreImport imports, Supplier<DataSource> dataSource, Environment environment) {
        this.imports = Objects.requireNonNull(imports, "imports");
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.environment = Objects.requireNonNull(environment, "environment");
    }

    @Override
    public QuartzImportReport run(String tablePrefix, String schedulerName, boolean apply) {
        DataSource store = dataSource.get();
        if (store == null) {
            throw new AxException("The Quartz import reads the application's DataSource, and it has none (or several"
                    + " and none is primary)");
        }
        String prefix = blank(tablePrefix) ? environment.getProperty(QUARTZ + "jobStore.tablePrefix") : tablePrefix;
        String scheduler = blank(schedulerName) ? applicationScheduler() : schedulerName;
        boolean useProperties =
                environment.getProperty(QUARTZ + "jobStore.useProperties", Boolean.class, Boolean.FALSE);
        QuartzImportReport report =
                imports.run(store, new QuartzStoreImport.Request(prefix, scheduler, useProperties, apply));
        log(report);
        return report;
    }

    /** The scheduler's name as Spring Boot's Quartz support names it. */
    private String applicationScheduler() {
        String named = environment.getProperty("spring.quartz.scheduler-name");
        if (!blank(named)) {
            return named;
        }
        return environment.getProperty(QUARTZ + "scheduler.instanceName", "quartzScheduler");
    }

    static void log(QuartzImportReport report) {
        LOG.info(
                "Quartz import of scheduler '{}' ({}): {} trigger(s) imported{}, {} refused, jobs without triggers {}",
                report.schedulerName(),
                report.applied() ? "applied" : "dry run, nothing written",
                report.imported(),
                report.applied() ? "" : " if applied",
                report.refused(),
                report.jobsWithoutTriggers());
        for (QuartzImportReport.TriggerEntry t : report.triggers()) {
            LOG.info(
                    "  {} -> {} {}{}{}",
                    t.trigger(),
                    t.outcome(),
                    t.task() == null ? "" : t.task() + " (" + t.schedule() + ", next fire " + t.axNextFire() + ")",
                    t.paused() ? " paused" : "",
                    t.note() == null ? "" : ": " + t.note());
        }
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
