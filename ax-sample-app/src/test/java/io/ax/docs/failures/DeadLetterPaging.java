package io.ax.docs.failures;

import io.ax.core.AxDeadLetterHandler;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The failures guide: a dead-letter handler of the application's own, in place of the default event. */
@Configuration(proxyBeanMethods = false)
class DeadLetterPaging {

    /** Whoever is on call. */
    interface Pager {
        void page(String message);
    }

    // tag::dead-letter-handler[]
    @Bean
    AxDeadLetterHandler pageOnDeadLetter(Pager pager) {
        // replaces the default handler: no AxDeadLetterEvent is published any more
        return letter -> pager.page("AX task " + letter.taskName() + " instance " + letter.instanceId()
                + " is DEAD after " + letter.attempts().size() + " attempt(s), scheduled for "
                + letter.scheduledTime());
    }
    // end::dead-letter-handler[]
}
