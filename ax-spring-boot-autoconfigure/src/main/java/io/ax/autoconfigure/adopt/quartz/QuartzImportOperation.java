package io.ax.autoconfigure.adopt.quartz;

/**
 * The import of the application's Quartz JDBC job store, as operators run it: through {@code POST
 * /actuator/ax/quartz-import}, or once at start ({@code ax.adopt.quartz-import}). It reads the application's
 * {@code DataSource}, where Spring Boot's Quartz support keeps the store, with the store's settings from {@code
 * spring.quartz.*} for whatever the call leaves out. Thread-safe.
 */
@FunctionalInterface
public interface QuartzImportOperation {

    /**
     * Reads the store and, when asked to, imports it (see {@link QuartzStoreImport}).
     *
     * @param tablePrefix the tables' prefix; null for the application's ({@code
     *     spring.quartz.properties.org.quartz.jobStore.tablePrefix}, else {@code QRTZ_})
     * @param schedulerName the scheduler's name; null for the application's ({@code spring.quartz.scheduler-name},
     *     else {@code org.quartz.scheduler.instanceName}, else {@code quartzScheduler})
     * @param apply false for a dry run, which writes nothing
     * @return what was imported, or would be
     * @throws IllegalArgumentException for a table prefix that is no table name, or a database the import cannot read
     * @throws io.ax.core.AxException when the store cannot be read or written, or AX refused a task; nothing was
     *     imported then
     */
    QuartzImportReport run(String tablePrefix, String schedulerName, boolean apply);
}
