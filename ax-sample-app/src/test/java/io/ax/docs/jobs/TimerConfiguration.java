package io.ax.docs.jobs;

import io.ax.core.wheel.AxTimerFactory;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.Consumer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The jobs guide's timer of its own: AX's wheel, counting what falls due. */
@Configuration(proxyBeanMethods = false)
public class TimerConfiguration {

    // tag::timer[]
    @Bean
    AxTimerFactory countingTimer(MeterRegistry meters) {
        Counter due = meters.counter("app.ax.timer.due");
        return (tick, nanoClock, dispatcher, threadName) -> {
            Consumer<Object> counting = payload -> {
                due.increment(); // on the timer's thread: keep it short, never block
                dispatcher.accept(payload);
            };
            return AxTimerFactory.wheel().create(tick, nanoClock, counting, threadName);
        };
    }
    // end::timer[]
}
