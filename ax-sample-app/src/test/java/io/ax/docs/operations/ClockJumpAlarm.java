package io.ax.docs.operations;

import io.ax.core.AxClockJumpEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/** The operations guide's example: an application that tells its on-call people of a clock jump. */
@Component
class ClockJumpAlarm {

    /** Where the application sends its warnings: a chat channel, a pager. */
    interface Pager {
        void warn(String message);
    }

    private final Pager pager;

    ClockJumpAlarm(Pager pager) {
        this.pager = pager;
    }

    // tag::clock-jump-listener[]
    @EventListener
    void onClockJump(AxClockJumpEvent event) {
        pager.warn("The clock of this node jumped " + (event.forwards() ? "forwards" : "backwards") + " by "
                + event.jump().abs().toMillis() + " ms; AX's trigger decisions wait "
                + event.pause().toMillis() + " ms");
    }
    // end::clock-jump-listener[]
}
