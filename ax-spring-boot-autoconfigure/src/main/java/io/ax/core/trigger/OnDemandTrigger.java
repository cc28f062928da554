package io.ax.core.trigger;

import java.time.Instant;
import java.util.Optional;

/** Never fires on its own: the task runs only when triggered through the API. */
public enum OnDemandTrigger implements Trigger {
    INSTANCE;

    @Override
    public Optional<Instant> firstFireTime(Instant now) {
        return Optional.empty();
    }

    @Override
    public Optional<Instant> nextFireTime(Instant previous, Instant completed) {
        return Optional.empty();
    }

    @Override
    public Optional<Instant> resumeAfter(Instant previous, Instant now) {
        return Optional.empty();
    }

    @Override
    public boolean firesOnItsOwn() {
        return false;
    }

    @Override
    public String describe() {
        return "on demand";
    }
}
