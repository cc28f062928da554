package io.ax.core.engine.ownership;

import io.ax.core.cluster.FencedOutException;
import io.ax.core.engine.writes.Fence;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/** {@link DecisionTerms#leader}: one epoch, the leader's, for every row. */
final class LeaderTerms implements DecisionTerms {

    private final LongSupplier leaderEpoch;
    private final Consumer<FencedOutException> fencedOut;

    LeaderTerms(LongSupplier leaderEpoch, Consumer<FencedOutException> fencedOut) {
        this.leaderEpoch = leaderEpoch;
        this.fencedOut = fencedOut;
    }

    @Override
    public long epochFor(String partitionKey) {
        return leaderEpoch.getAsLong();
    }

    @Override
    public Fence fence(long epoch) {
        return Fence.leader(epoch);
    }

    @Override
    public void fencedOut(FencedOutException refused) {
        fencedOut.accept(refused);
    }
}
