package io.ax.docs.start;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/** The getting-started guide's first job. */
// tag::first-job[]
@Component
class Greetings {

    private static final Logger log = LoggerFactory.getLogger(Greetings.class);

    @AxJob(cron = "0/10 * * * * ?", timeout = "5s")
    void hello(AxContext context) {
        log.info("hello from attempt {} of {}", context.attempt(), context.instanceId());
    }
}
// end::first-job[]
