package io.ax.docs.failures;

import io.ax.core.AxScheduler;
import io.ax.core.ScheduleRequest;
import java.time.Duration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** The failures guide: a delayed task scheduled inside the caller's transaction. */
@Service
class Signups {

    private final JdbcTemplate jdbc;
    private final AxScheduler scheduler;

    Signups(JdbcTemplate jdbc, AxScheduler scheduler) {
        this.jdbc = jdbc;
        this.scheduler = scheduler;
    }

    // tag::in-transaction[]
    @Transactional // the application's transaction manager, on the DataSource AX keeps its tables in
    public void signUp(String email) {
        jdbc.update("INSERT INTO account (email) VALUES (?)", email);
        // written in this transaction: committed with the account, or gone with its rollback
        scheduler.schedule(ScheduleRequest.of("sendWelcomeMail")
                .after(Duration.ofMinutes(10))
                .payload(email)
                .key("welcome:" + email));
    }
    // end::in-transaction[]
}
