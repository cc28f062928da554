package io.ax.sample.faults;

import io.ax.core.AxScheduler;
import io.ax.core.ScheduleRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.context.annotation.Profile;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * How the fault runner sends delayed tasks to a node: {@code POST /faults/delayed?count=&minDelayMs=&maxDelayMs=}
 * schedules that many on this node, each after a random delay in the range, and answers their instance ids; {@code
 * POST /faults/delayed/cancel} with a JSON list of ids cancels them (from any node) and answers how many it
 * cancelled. A write without a CSRF token must carry credentials (any user's): the sample's security asks that of
 * every client outside {@code /orders}.
 */
@RestController
@Profile("faults")
@RequestMapping("/faults/delayed")
public class DelayedLoad {

    /** The task that runs them. */
    static final String HANDLER = "faults-delayed";

    private static final int MAX_COUNT = 1_000;

    private final AxScheduler scheduler;

    public DelayedLoad(AxScheduler scheduler) {
        this.scheduler = scheduler;
    }

    @PostMapping
    public ResponseEntity<List<String>> schedule(
            @RequestParam int count,
            @RequestParam long minDelayMs,
            @RequestParam long maxDelayMs,
            @RequestParam(defaultValue = "0") double failFirst) {
        if (count < 1 || count > MAX_COUNT || minDelayMs < 0 || maxDelayMs < minDelayMs) {
            return ResponseEntity.badRequest().build();
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        List<ScheduleRequest> requests = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long delay = minDelayMs + random.nextLong(maxDelayMs - minDelayMs + 1);
            requests.add(ScheduleRequest.of(HANDLER)
                    .after(Duration.ofMillis(delay))
                    .payload(new DelayedWork(i, random.nextDouble() < failFirst)));
        }
        return ResponseEntity.ok(scheduler.scheduleAll(requests));
    }

    @PostMapping("/cancel")
    public Map<String, Integer> cancel(@RequestBody List<String> ids) {
        int cancelled = 0;
        for (String id : ids) {
            if (scheduler.cancel(id)) {
                cancelled++;
            }
        }
        return Map.of("cancelled", cancelled);
    }
}
