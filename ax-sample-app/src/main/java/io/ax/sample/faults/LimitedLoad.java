package io.ax.sample.faults;

import io.ax.core.AxScheduler;
import io.ax.core.ScheduleRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.context.annotation.Profile;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * How the fault runner sends the limited tasks ({@link LimitedJobs}) to a node: {@code POST
 * /faults/limited?bursts=&minDelayMs=&maxDelayMs=&failFirst=} schedules that many bursts on this node, each due at
 * once after a random delay in the range, and answers their instance ids (cancelled, if at all, through {@code POST
 * /faults/delayed/cancel}). A burst is one more instance than each limit lets run at once: three of {@code
 * faults-limited} (limit 2), a debit and a credit of one of {@value #ACCOUNTS} accounts (one mutex), and three of the
 * pool {@value LimitedJobs#GROUP} (cluster limit 2); so that every burst makes some wait, on whichever nodes own them.
 * A burst also holds three of {@code faults-rated} ({@value LimitedJobs#RATE}): fewer than its rate, so that at a
 * burst a second its runs keep up on average; but two bursts due within a second of each other, common when each is
 * due a random delay of seconds after it was sent, are more than the rate lets start, and some wait. Writes need
 * credentials, as {@link DelayedLoad}'s do.
 */
@RestController
@Profile("faults")
@RequestMapping("/faults/limited")
public class LimitedLoad {

    /** How many accounts the mutex tasks' keys name: few, so that their instances often meet. */
    static final int ACCOUNTS = 5;

    private static final int MAX_BURSTS = 100;

    private final AxScheduler scheduler;

    public LimitedLoad(AxScheduler scheduler) {
        this.scheduler = scheduler;
    }

    @PostMapping
    public ResponseEntity<List<String>> schedule(
            @RequestParam int bursts,
            @RequestParam long minDelayMs,
            @RequestParam long maxDelayMs,
            @RequestParam(defaultValue = "0") double failFirst) {
        if (bursts < 1 || bursts > MAX_BURSTS || minDelayMs < 0 || maxDelayMs < minDelayMs) {
            return ResponseEntity.badRequest().build();
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int b = 0; b < bursts; b++) {
            Duration delay = Duration.ofMillis(minDelayMs + random.nextLong(maxDelayMs - minDelayMs + 1));
            // a key is unique per task, and its prefix (up to ':') is the account the mutex is named after
            String account = "acct-" + random.nextInt(ACCOUNTS) + ":" + UUID.randomUUID();
            List<ScheduleRequest> burst = List.of(
                    ScheduleRequest.of(LimitedJobs.LIMITED),
                    ScheduleRequest.of(LimitedJobs.LIMITED),
                    ScheduleRequest.of(LimitedJobs.LIMITED),
                    ScheduleRequest.of(LimitedJobs.DEBIT).key(account),
                    ScheduleRequest.of(LimitedJobs.CREDIT).key(account),
                    ScheduleRequest.of(LimitedJobs.POOLED_A),
                    ScheduleRequest.of(LimitedJobs.POOLED_B),
                    ScheduleRequest.of(LimitedJobs.POOLED_A),
                    ScheduleRequest.of(LimitedJobs.RATED),
                    ScheduleRequest.of(LimitedJobs.RATED),
                    ScheduleRequest.of(LimitedJobs.RATED));
            for (ScheduleRequest r : burst) {
                int seq = requests.size();
                requests.add(r.after(delay).payload(new DelayedWork(seq, random.nextDouble() < failFirst)));
            }
        }
        return ResponseEntity.ok(scheduler.scheduleAll(requests));
    }
}
