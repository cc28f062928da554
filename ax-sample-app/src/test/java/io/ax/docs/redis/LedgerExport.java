package io.ax.docs.redis;

import io.ax.core.AxLock;
import io.ax.core.AxLocks;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.springframework.stereotype.Component;

/** An export that must run on one node at a time, whoever calls it: a cluster-wide lock of {@link AxLocks}. */
@Component
public class LedgerExport {

    /** Where the ledger goes, batch by batch; it stops between batches once {@code stop} says so. */
    public interface LedgerWriter {
        void writeAll(BooleanSupplier stop);
    }

    private final AxLocks locks;
    private final LedgerWriter writer;

    public LedgerExport(AxLocks locks, LedgerWriter writer) {
        this.locks = locks;
        this.writer = writer;
    }

    // tag::lock[]
    /** Exports the ledger unless another node exports it now; true when this node exported it to the end. */
    public boolean exportIfFree() {
        Thread worker = Thread.currentThread();
        Optional<AxLock> taken = locks.tryAcquire("ledger-export", worker::interrupt);
        if (taken.isEmpty()) {
            return false; // another node holds it, or Redis does not answer
        }
        try (AxLock lock = taken.get()) {
            writer.writeAll(lock::isLost); // stops between batches once the lock is lost
            return !lock.isLost();
        }
    }
    // end::lock[]
}
