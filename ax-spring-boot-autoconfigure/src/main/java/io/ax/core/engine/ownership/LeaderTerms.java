package io.ax.core.engine.ownership;

import io.ax.core.Transition;
import io.ax.core.cluster.FencedOutException;
import io.ax.core.store.NewFire;
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
    public long leaderFence(long epoch) {
        return epoch;
    }

    @Override
    public Transition decided(Transition change, String owner, long epoch) {
        return change.assignedTo(owner, epoch);
    }

    @Override
    public NewFire decided(NewFire fire, long epoch) {
        return fire; // the leader's fence is the write's (leaderFence), not each fire's
    }

    @Override
    public void fencedOut(FencedOutException refused) {
        fencedOut.accept(refused);
    }
}
