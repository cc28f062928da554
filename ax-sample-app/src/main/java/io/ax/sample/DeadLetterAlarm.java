package io.ax.sample;

import io.ax.core.AxDeadLetterEvent;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/** Shows how an application hears of dead letters: a plain Spring event listener. */
@Component
public class DeadLetterAlarm {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterAlarm.class);

    private final AtomicInteger heard = new AtomicInteger();

    // tag::dead-letter-event[]
    @EventListener
    public void onDeadLetter(AxDeadLetterEvent event) {
        heard.incrementAndGet();
        LOG.warn(
                "ALARM: task '{}' instance {} is dead after {} attempt(s)",
                event.deadLetter().taskName(),
                event.deadLetter().instanceId(),
                event.deadLetter().attempts().size());
    }
    // end::dead-letter-event[]

    /** How many dead letters were heard. */
    public int heard() {
        return heard.get();
    }
}
