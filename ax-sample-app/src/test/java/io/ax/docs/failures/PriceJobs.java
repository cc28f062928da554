package io.ax.docs.failures;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import io.ax.core.AxResult;
import io.ax.core.Backoff;
import java.io.IOException;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import org.springframework.stereotype.Component;

/** The failures guide: how a handler fails (a throw, a returned failure), its retries, and a timeout it obeys. */
@Component
class PriceJobs {

    /** Where the prices come from. */
    interface PriceFeed {
        boolean isPublished(LocalDate day);

        List<String> download(LocalDate day) throws IOException;
    }

    /** Where they go. */
    interface Prices {
        void store(List<String> lines);

        List<String> stalePages();

        void rebuild(String page);
    }

    private final PriceFeed feed;
    private final Prices prices;

    PriceJobs(PriceFeed feed, Prices prices) {
        this.feed = feed;
        this.prices = prices;
    }

    // tag::fail[]
    @AxJob(
            name = "importPrices",
            cron = "0 0 6 * * ?",
            timeout = "2m",
            retry = @AxJob.Retry(times = "5", backoff = Backoff.EXPONENTIAL, base = "30s", max = "10m"))
    AxResult importPrices(AxContext context) throws IOException {
        LocalDate day = LocalDate.ofInstant(context.scheduledTime(), ZoneOffset.UTC);
        if (!feed.isPublished(day)) {
            return AxResult.failure("the feed for " + day + " is not published yet"); // retried, as a throw is
        }
        prices.store(feed.download(day)); // an IOException fails the attempt
        return AxResult.success("imported " + day);
    }
    // end::fail[]

    // tag::timeout[]
    @AxJob(name = "rebuildPriceIndex", fixedDelay = "1h", timeout = "10m")
    void rebuildPriceIndex() {
        for (String page : prices.stalePages()) {
            if (Thread.currentThread().isInterrupted()) {
                return; // the timeout interrupted this thread: AX has recorded TIMEOUT, stop here
            }
            prices.rebuild(page);
        }
    }
    // end::timeout[]
}
