package io.ax.core.engine.scheduling;

import io.ax.core.AxTask;
import io.ax.core.Durability;
import io.ax.core.InvalidScheduleException;
import io.ax.core.PayloadCodec;
import io.ax.core.ScheduleRequest;
import io.ax.core.TaskInstance;
import io.ax.core.UnknownTaskException;
import io.ax.core.engine.writes.InstanceIds;
import io.ax.core.trigger.OnDemandTrigger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Checks what callers of {@link io.ax.core.AxScheduler} ask for, all of a batch before any of it is written: a
 * request either becomes a {@link Checked} one, whose every value the stores and the wheel can hold, or is refused
 * with a message naming the argument and the request. Stateless apart from its settings; thread-safe.
 */
final class ScheduleRequests {

    /** How far in the past a time may lie and still count as now: the caller's clock read a moment ago. */
    static final Duration PAST_TOLERANCE = Duration.ofSeconds(1);

    /** A checked request, ready to write: its due time lies within the horizon, in whole microseconds. */
    record Checked(AxTask task, Instant due, byte[] payload, String key, Durability durability, Integer priority) {}

    private final Function<String, Optional<AxTask>> tasks;
    private final PayloadCodec codec;
    private final int maxPayloadSize;

    ScheduleRequests(Function<String, Optional<AxTask>> tasks, PayloadCodec codec, int maxPayloadSize) {
        this.tasks = tasks;
        this.codec = codec;
        this.maxPayloadSize = maxPayloadSize;
    }

    /**
     * Checks every request of a batch.
     *
     * @throws NullPointerException when a request is null
     * @throws io.ax.core.InvalidScheduleException for the first bad request
     * @throws UnknownTaskException for the first request naming no task
     */
    List<Checked> checkAll(List<ScheduleRequest> requests, Instant now) {
        List<Checked> checked = new ArrayList<>(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            ScheduleRequest r = requests.get(i);
            if (r == null) {
                throw new NullPointerException("request " + i + " of the batch is null");
            }
            checked.add(check(r, now, requests.size() == 1 ? "" : " (request " + i + ")"));
        }
        return checked;
    }

    /**
     * The new time of a reschedule, checked like a request's and truncated to microseconds.
     *
     * @throws InvalidScheduleException when it is null, past or beyond the horizon
     */
    static Instant checkNewTime(String instanceId, Instant newTime, Instant now) {
        // a garbage id is not echoed: it may be a megabyte long
        String what = "newTime" + (InstanceIds.isWellFormed(instanceId) ? " for instance " + instanceId : "");
        if (newTime == null) {
            throw new InvalidScheduleException(what + " is null");
        }
        checkNotPast(newTime, now, false, what);
        Horizon.check(newTime, now, what);
        return newTime.truncatedTo(ChronoUnit.MICROS);
    }

    private Checked check(ScheduleRequest r, Instant now, String which) {
        AxTask task = tasks.apply(r.handler()).orElseThrow(() -> new UnknownTaskException(r.handler()));
        String of = " for '" + task.name() + "'" + which;
        if (task.trigger() != OnDemandTrigger.INSTANCE) {
            throw new InvalidScheduleException("Task '" + task.name() + "' has a trigger ("
                    + task.trigger().describe()
                    + "); only handlers without a trigger take scheduled executions" + which
                    + ". Use triggerNow to run it once now");
        }
        Instant due = dueTime(r, now, of);
        byte[] payload = encode(r.payload(), of);
        checkKey(r.key(), of);
        Durability durability = r.durability() != null ? r.durability() : task.durability();
        if (durability == Durability.MEMORY && task.transactional()) {
            throw new InvalidScheduleException("durability" + of + " is MEMORY, and '" + task.name()
                    + "' is transactional: its success commits with its row in the database; schedule it PERSISTENT");
        }
        if (durability == Durability.MEMORY && task.limits().any()) {
            throw new InvalidScheduleException("durability" + of + " is MEMORY, and '" + task.name()
                    + "' is limited across the cluster (maxConcurrent or mutex): its permits are kept with its row in"
                    + " the store; schedule it PERSISTENT");
        }
        checkPriority(r.priority(), of);
        return new Checked(task, due, payload, r.key(), durability, r.priority());
    }

    private static void checkPriority(Integer priority, String of) {
        if (priority != null && (priority < AxTask.MIN_PRIORITY || priority > AxTask.MAX_PRIORITY)) {
            throw new InvalidScheduleException("priority" + of + " must be between " + AxTask.MIN_PRIORITY + " and "
                    + AxTask.MAX_PRIORITY + ", was " + priority);
        }
    }

    private static Instant dueTime(ScheduleRequest r, Instant now, String of) {
        Instant due;
        if (r.at() != null) {
            due = r.at();
            checkNotPast(due, now, r.pastAllowed(), "at" + of);
            Horizon.check(due, now, "at" + of);
        } else if (r.delay() != null) {
            if (r.delay().isNegative()) {
                throw new InvalidScheduleException("delay" + of + " is negative: " + r.delay());
            }
            Horizon.checkDelay(r.delay(), now, "delay" + of);
            due = now.plus(r.delay());
        } else {
            throw new InvalidScheduleException(
                    "The request" + of + " has no time: give it at(instant) or after(delay)");
        }
        return due.truncatedTo(ChronoUnit.MICROS); // stores keep microseconds
    }

    private static void checkNotPast(Instant due, Instant now, boolean allowed, String what) {
        if (!allowed && due.isBefore(now.minus(PAST_TOLERANCE))) {
            throw new InvalidScheduleException(what + " is " + due + ", in the past (now is " + now
                    + "); use ScheduleRequest.allowPast() to run it at once");
        }
    }

    private byte[] encode(Object payload, String of) {
        byte[] bytes;
        if (payload == null) {
            return null;
        } else if (payload instanceof String s) {
            if (s.length() > maxPayloadSize) { // every char is at least one byte: no need to encode a huge one
                throw overLimit(of, "at least " + s.length());
            }
            bytes = s.getBytes(StandardCharsets.UTF_8);
        } else if (payload instanceof byte[] b) {
            bytes = b.clone();
        } else {
            try {
                bytes = codec.encode(payload);
            } catch (InvalidScheduleException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new InvalidScheduleException("payload" + of + " could not be encoded: " + e.getMessage());
            }
            if (bytes == null) {
                throw new InvalidScheduleException("payload" + of + " could not be encoded: the codec returned null");
            }
        }
        if (bytes.length > maxPayloadSize) {
            throw overLimit(of, String.valueOf(bytes.length));
        }
        return bytes;
    }

    private InvalidScheduleException overLimit(String of, String size) {
        return new InvalidScheduleException("payload" + of + " has " + size + " bytes, over the limit of "
                + maxPayloadSize + " (ax.payload.max-size)");
    }

    /**
     * A key is stored in a VARCHAR column and compared there: control characters (PostgreSQL refuses NUL) and
     * unpaired surrogates (a driver turns them into '?', so the key would no longer find itself) are refused here
     * rather than failing, or worse, half-working, in one database only.
     */
    private static void checkKey(String key, String of) {
        if (key == null) {
            return;
        }
        if (key.isEmpty() || key.length() > TaskInstance.MAX_KEY_LENGTH) {
            throw new InvalidScheduleException("key" + of + " must have 1 to " + TaskInstance.MAX_KEY_LENGTH
                    + " characters; it has " + key.length());
        }
        if (key.startsWith("@")) {
            throw new InvalidScheduleException(
                    "key" + of + " starts with '@', which is reserved for trigger fire times: '" + key + "'");
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isISOControl(c)) {
                throw new InvalidScheduleException("key" + of + " holds a control character (U+"
                        + String.format("%04X", (int) c) + ") at index " + i);
            }
            if (Character.isHighSurrogate(c) && i + 1 < key.length() && Character.isLowSurrogate(key.charAt(i + 1))) {
                i++; // a pair: one code point
            } else if (Character.isSurrogate(c)) {
                throw new InvalidScheduleException("key" + of + " holds an unpaired surrogate at index " + i);
            }
        }
    }
}
