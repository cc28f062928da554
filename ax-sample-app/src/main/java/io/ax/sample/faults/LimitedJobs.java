package io.ax.sample.faults;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/**
 * The tasks of the fault runner's workload that are limited across the cluster, all delayed ({@link LimitedLoad}
 * schedules them): one with {@code maxConcurrent}, two sharing a mutex per account, two in the group {@value #GROUP},
 * whose {@code cluster-limit} the profile's configuration sets, and one with a rate of {@value #RATE}. Each of the
 * first five works a few hundred milliseconds, so that instances due together wait for one another's permits; the
 * rated one works a few tens, for its rate limits how many start in a window, not how many go at once. Each waits
 * interruptibly: a timeout ends it. Some fail their first attempt (as their payload says), so that retries take
 * permits too.
 */
@Component
@Profile("faults")
public class LimitedJobs {

    /** At most {@value #MAX_CONCURRENT} of its attempts at once, on all nodes together. */
    static final String LIMITED = "faults-limited";

    static final int MAX_CONCURRENT = 2;

    /** The two tasks of an account, whose keys are {@code acct-<n>:<unique>}: one attempt per account at a time. */
    static final String DEBIT = "faults-account-debit";

    static final String CREDIT = "faults-account-credit";

    /** The two tasks of the pool whose attempts are limited across the cluster by {@code ax.pools.limited}. */
    static final String POOLED_A = "faults-pooled-a";

    static final String POOLED_B = "faults-pooled-b";

    static final String GROUP = "limited";

    /**
     * At most 4 of its attempts start in any second, on all nodes together ({@value #RATE}): the engine holds a permit
     * for the window from each claim, whatever the attempt does.
     */
    static final String RATED = "faults-rated";

    static final String RATE = "4/1s";

    @AxJob(
            name = LIMITED,
            maxConcurrent = MAX_CONCURRENT,
            timeout = "5s",
            retry = @AxJob.Retry(times = "2", base = "300ms", max = "1s"))
    public void limited(AxContext context) throws InterruptedException {
        work(context, 200, 400);
    }

    @AxJob(
            name = DEBIT,
            mutex = "${keyPrefix}",
            timeout = "5s",
            retry = @AxJob.Retry(times = "2", base = "300ms", max = "1s"))
    public void debit(AxContext context) throws InterruptedException {
        work(context, 100, 300);
    }

    @AxJob(
            name = CREDIT,
            mutex = "${keyPrefix}",
            timeout = "5s",
            retry = @AxJob.Retry(times = "2", base = "300ms", max = "1s"))
    public void credit(AxContext context) throws InterruptedException {
        work(context, 100, 300);
    }

    @AxJob(
            name = POOLED_A,
            group = GROUP,
            timeout = "5s",
            retry = @AxJob.Retry(times = "2", base = "300ms", max = "1s"))
    public void pooledA(AxContext context) throws InterruptedException {
        work(context, 100, 300);
    }

    @AxJob(
            name = POOLED_B,
            group = GROUP,
            timeout = "5s",
            retry = @AxJob.Retry(times = "2", base = "300ms", max = "1s"))
    public void pooledB(AxContext context) throws InterruptedException {
        work(context, 100, 300);
    }

    @AxJob(name = RATED, rate = RATE, timeout = "5s", retry = @AxJob.Retry(times = "2", base = "300ms", max = "1s"))
    public void rated(AxContext context) throws InterruptedException {
        work(context, 20, 60);
    }

    /** Works from {@code minMs} to {@code maxMs}, then fails if this is a first attempt its payload says to fail. */
    private static void work(AxContext context, long minMs, long maxMs) throws InterruptedException {
        Thread.sleep(ThreadLocalRandom.current().nextLong(minMs, maxMs + 1));
        DelayedWork.failFirstIfAsked(context);
    }
}
