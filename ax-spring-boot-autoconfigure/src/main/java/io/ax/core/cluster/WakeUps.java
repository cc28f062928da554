package io.ax.core.cluster;

import java.util.Collection;
import java.util.function.Consumer;

/**
 * Wake-up signals between the nodes of a cluster: they only shorten a wait (the tables stay the truth), so a lost
 * signal costs at most one poll interval. Implementations are thread-safe.
 */
public interface WakeUps extends AutoCloseable {

    /** The signal that wakes the leader: work was written that it should look at now. */
    String LEADER = "*leader";

    /** Sends {@code signals} (node ids, or {@link #LEADER}) to every listening node; never throws. */
    void signal(Collection<String> signals);

    /**
     * Starts delivering the signals other nodes send to {@code onSignal}, on a thread of its own, until {@link
     * #close}.
     */
    void listen(Consumer<String> onSignal);

    /** Stops listening; idempotent. */
    @Override
    void close();

    /** No signals: every node finds its work by polling. */
    static WakeUps none() {
        return None.INSTANCE;
    }

    /** The wake-ups of a store without any. */
    enum None implements WakeUps {
        INSTANCE;

        @Override
        public void signal(Collection<String> signals) {}

        @Override
        public void listen(Consumer<String> onSignal) {}

        @Override
        public void close() {}
    }
}
