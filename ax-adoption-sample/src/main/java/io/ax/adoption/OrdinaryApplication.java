package io.ax.adoption;

import javax.sql.DataSource;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * An ordinary application as a team has it before it meets AX: Spring {@code @Scheduled} methods, some under
 * ShedLock's {@code @SchedulerLock} with ShedLock's JDBC lock provider, and Quartz jobs wired through Spring Boot's
 * Quartz starter. Nothing in it knows AX: the AX starter is on its class path, and {@code ax.adopt.scheduled=all}
 * with {@code ax.adopt.quartz=true} make AX run its jobs, once per fire across its replicas.
 *
 * <p>Every job writes each run it completes to the table {@code ordinary_runs} ({@link RunLog}): that record, not
 * AX's, is what the tests count.
 */
@SpringBootApplication
@EnableScheduling
@EnableSchedulerLock(defaultLockAtMostFor = "PT30S")
public class OrdinaryApplication {

    public static void main(String[] args) {
        SpringApplication.run(OrdinaryApplication.class, args);
    }

    @Bean
    LockProvider lockProvider(DataSource dataSource) {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        jdbc.execute("CREATE TABLE IF NOT EXISTS shedlock (name VARCHAR(64) NOT NULL PRIMARY KEY,"
                + " lock_until TIMESTAMP NOT NULL, locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL)");
        return new JdbcTemplateLockProvider(JdbcTemplateLockProvider.Configuration.builder()
                .withJdbcTemplate(jdbc)
                .usingDbTime()
                .build());
    }
}
