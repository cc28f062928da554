package io.ax.docs.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.AxLock;
import io.ax.core.AxLocks;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** The redis guide's lock example, against locks held in this JVM: one export at a time, and a lost lock stops it. */
class LedgerExportTest {

    /** Locks of one JVM, with a way to take one away from its holder as a failed renewal would. */
    static final class JvmLocks implements AxLocks {
        final Map<String, Held> held = new ConcurrentHashMap<>();

        final class Held implements AxLock {
            final String name;
            final Runnable onLost;
            volatile boolean lost;

            Held(String name, Runnable onLost) {
                this.name = name;
                this.onLost = onLost;
            }

            void lose() {
                lost = true;
                held.remove(name, this);
                onLost.run();
            }

            @Override
            public String name() {
                return name;
            }

            @Override
            public String token() {
                return Integer.toHexString(System.identityHashCode(this));
            }

            @Override
            public boolean isLost() {
                return lost;
            }

            @Override
            public void close() {
                held.remove(name, this);
            }
        }

        @Override
        public Optional<AxLock> tryAcquire(String name, Runnable onLost) {
            Held lock = new Held(name, onLost);
            return held.putIfAbsent(name, lock) == null ? Optional.of(lock) : Optional.empty();
        }
    }

    @Test
    void aSecondExportWhileOneRunsDoesNotStart() {
        JvmLocks locks = new JvmLocks();
        boolean[] inner = new boolean[1];
        LedgerExport[] other = new LedgerExport[1];
        LedgerExport export = new LedgerExport(locks, stop -> inner[0] = other[0].exportIfFree());
        other[0] = new LedgerExport(locks, stop -> {});

        assertThat(export.exportIfFree()).isTrue();
        assertThat(inner[0]).as("the export that came meanwhile").isFalse();
        assertThat(locks.held).as("released").isEmpty();
    }

    @Test
    void aLockLostMidwayStopsTheExport() {
        JvmLocks locks = new JvmLocks();
        int[] batches = new int[1];
        LedgerExport export = new LedgerExport(locks, stop -> {
            while (!stop.getAsBoolean() && batches[0] < 10) {
                batches[0]++;
                if (batches[0] == 3) {
                    locks.held.get("ledger-export").lose();
                }
            }
        });

        assertThat(export.exportIfFree()).isFalse();
        assertThat(batches[0]).isEqualTo(3);
        assertThat(Thread.interrupted())
                .as("the worker was interrupted, and is no longer")
                .isTrue();
    }
}
