package io.ax.autoconfigure.endpoint;

import io.ax.core.AttemptError;
import io.ax.core.AuditEntry;
import io.ax.core.DeadLetter;
import io.ax.core.TaskInstance;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The immutable values the {@code ax} endpoint answers with; each becomes one JSON object. */
public final class AxDescriptors {

    private AxDescriptors() {}

    /**
     * {@code /actuator/ax}: this node and the engine.
     *
     * @param node this node's id
     * @param storeKind where the instances live: {@code in-memory} (lost when the process stops), {@code jdbc}, or
     *     a custom store's own word
     * @param store the store in words: for JDBC the database and its URL without credentials
     * @param role {@code leader} or {@code standby}
     * @param leader the leading node; null when none is known
     * @param epoch the leader's fencing token
     * @param liveNodes the nodes known to be alive
     * @param running whether the engine runs
     * @param backlog instances due but not started, per pool
     * @param oldestBacklogAgeMillis how long the oldest of them has waited
     * @param backlogByPriority the same instances per priority, highest first
     * @param waitingForPermits instances that wait on this node for a permit of a cluster-wide limit, by the limit's
     *     key ({@code group:<name>}, {@code task:<name>}, {@code mutex:<key>})
     * @param wheelEntries entries in the time wheel
     * @param executing instances executing on this node now
     * @param clock the clock-jump guard
     * @param deadLetters dead letters in the store
     * @param tasks registered tasks
     * @param leaseExpiresAt when the leader's lease runs out unless renewed (database clock); null when none is held
     * @param nodes the live nodes
     * @param reassigned instances this node, as leader, took back from their node, by reason
     * @param partitions the cluster's partitions as this node sees them; null before its engine started
     * @param dueInStore instances the store held due ({@code SCHEDULED}), loaded by a node or not, at its last read in
     *     the background; null before the first read answered
     * @param oldestDueInStoreMillis how long the earliest of them had been due at that read; null with {@code
     *     dueInStore}
     * @param lagMillis how far behind this node is: how long the oldest fire it must start has waited, in its queue or
     *     in the store in a partition it owns (as of the store's last read); 0 while it keeps up
     * @param clusterLagMillis the same for the whole cluster: the oldest due fire any node must start, in the store or
     *     in this node's queue
     * @param repairedSeries series this node's reconciliation found without their next fire and gave it again, since
     *     it started: 0 while every handover carries the series, as it should
     */
    public record Node(
            String node,
            String storeKind,
            String store,
            String role,
            String leader,
            long epoch,
            List<String> liveNodes,
            boolean running,
            Map<String, Integer> backlog,
            long oldestBacklogAgeMillis,
            Map<Integer, Integer> backlogByPriority,
            Map<String, Integer> waitingForPermits,
            int wheelEntries,
            int executing,
            Clock clock,
            long deadLetters,
            int tasks,
            Instant leaseExpiresAt,
            List<Member> nodes,
            Map<String, Long> reassigned,
            Partitions partitions,
            Long dueInStore,
            Long oldestDueInStoreMillis,
            long lagMillis,
            long clusterLagMillis,
            long repairedSeries) {}

    /**
     * The cluster's partitions as this node sees them, from what it holds (no query).
     *
     * @param count the cluster's partition count
     * @param owned how many this node owns
     * @param ownedRanges the partitions it owns, as ranges ({@code 0-3, 7})
     * @param lowestEpoch the lowest epoch of those it owns; 0 when it owns none
     * @param highestEpoch the highest; 0 when it owns none
     * @param deciding whether its heartbeat is recent enough for it to act on them
     * @param perNode how many each live owner held at this node's last round, by node id
     * @param gained partitions this node has taken since it started
     * @param lost partitions it has given up or lost since it started
     */
    public record Partitions(
            int count,
            int owned,
            String ownedRanges,
            long lowestEpoch,
            long highestEpoch,
            boolean deciding,
            Map<String, Integer> perNode,
            long gained,
            long lost) {

        static Partitions of(io.ax.core.cluster.PartitionTerms t) {
            Map<Integer, Long> owned = t.owned();
            return new Partitions(
                    t.count(),
                    owned.size(),
                    t.ownedRanges(),
                    owned.values().stream().mapToLong(Long::longValue).min().orElse(0),
                    owned.values().stream().mapToLong(Long::longValue).max().orElse(0),
                    t.decides(),
                    t.perNode(),
                    t.gained(),
                    t.lost());
        }
    }

    /**
     * A live node of the cluster, as the last heartbeat read showed it.
     *
     * @param node its id
     * @param host where it runs
     * @param startedAt when it started
     * @param heartbeatAgeMillis how old its heartbeat was, on the database's clock
     * @param capacityFree how many more instances it could take
     */
    public record Member(String node, String host, Instant startedAt, long heartbeatAgeMillis, int capacityFree) {}

    /**
     * The clock-jump guard.
     *
     * @param status {@code ok}, or {@code paused} while trigger decisions wait after a jump
     * @param pauseLeftMillis how long they still wait
     * @param jumps jumps seen since the start
     * @param lastJumpMillis the last jump (negative: backwards); null when none
     * @param lastJumpAt when it was seen; null when none
     * @param clusterTime this node's offset from the cluster's clock; null when the clock is taken as it is
     */
    public record Clock(
            String status,
            long pauseLeftMillis,
            long jumps,
            Long lastJumpMillis,
            Instant lastJumpAt,
            ClusterTime clusterTime) {}

    /**
     * This node's offset from the cluster's reference clock, which fire times are decided on.
     *
     * @param source {@code redis} or {@code database}: the clock the last reading came from
     * @param offsetMicros how far the reference is ahead of this node's clock (negative: behind), at the least
     * @param uncertaintyMicros how much larger the true offset may be (the reading's round trip)
     * @param measuredAt when it was measured
     * @param failing why the last reading failed (the offset is the one before); null when it succeeded
     */
    public record ClusterTime(
            String source, long offsetMicros, long uncertaintyMicros, Instant measuredAt, String failing) {}

    /**
     * {@code /actuator/ax/overview}: what the cluster ran over the last hour (minute by minute) or day (ten minutes a
     * bucket), of all tasks or one, for a chart. From the per-minute rollup every node writes (see {@code
     * AxEngine#activity}); this node's counts are its freshest, the others' at most their flush interval old.
     *
     * @param node this node's id
     * @param scope {@code cluster} when the counts are every node's; {@code node} when the store keeps no rollup, or
     *     did not answer, and they are this node's alone
     * @param unavailable why the store did not answer, when it did not; null otherwise
     * @param window {@code hour} or {@code day}
     * @param task the task the counts are of; null for all tasks
     * @param bucketMinutes how many minutes each bucket spans
     * @param firesLastMinute fires (first attempts started) in the last full minute
     * @param latenessP50Millis median lateness of the window's fires (start minus scheduled time); null without fires
     * @param latenessP99Millis its 99th percentile; null without fires
     * @param buckets the window's buckets, oldest first, the current (partial) one last
     */
    public record Overview(
            String node,
            String scope,
            String unavailable,
            String window,
            String task,
            long bucketMinutes,
            long firesLastMinute,
            Long latenessP50Millis,
            Long latenessP99Millis,
            List<Bucket> buckets) {}

    /**
     * One bucket of the overview. Percentiles are read from bins at most 12.5 % wide, never below the true value.
     *
     * @param start when it began
     * @param fires first attempts that started in it
     * @param successes attempts that succeeded in it
     * @param failures attempts that failed in it (timeouts apart)
     * @param timeouts attempts that timed out in it
     * @param deadLetters instances that went DEAD in it
     * @param latenessP50Millis median lateness of its fires; null without fires
     * @param latenessP99Millis 99th percentile of their lateness; null without fires
     */
    public record Bucket(
            Instant start,
            long fires,
            long successes,
            long failures,
            long timeouts,
            long deadLetters,
            Long latenessP50Millis,
            Long latenessP99Millis) {

        static Bucket of(io.ax.core.engine.Activity.Bucket b) {
            return new Bucket(
                    b.start(),
                    b.fires(),
                    b.successes(),
                    b.failures(),
                    b.timeouts(),
                    b.deadLetters(),
                    b.latenessP50Millis(),
                    b.latenessP99Millis());
        }
    }

    /** {@code /actuator/ax/tasks}. */
    public record Tasks(List<Task> tasks) {}

    /**
     * One task.
     *
     * @param name its name
     * @param trigger its trigger, exactly ({@code cron '0 0/15 * * * ?' in Europe/Berlin})
     * @param triggerInWords its trigger as an operator reads it ({@code every 15 minutes, Europe/Berlin})
     * @param zone the time zone of a cron trigger; null for others
     * @param group its execution pool
     * @param priority which of its pool's waiting instances start first (higher first; a request may set its own)
     * @param transactional whether each attempt runs in one transaction with the record of its success
     * @param paused whether its trigger is paused
     * @param nextFireTimes its next (at most five) fire times; for a fixed delay only the pending one is known
     * @param lastInstances its newest instances, newest first
     * @param successes attempts that succeeded: on every node over the last 24 hours when {@code outcomesScope} is
     *     {@code cluster}, on this node since it started when it is {@code node}
     * @param failures attempts that failed or timed out, over the same span
     * @param deadLetters instances that went DEAD, over the same span
     * @param outcomesScope {@code cluster} when the three counts are every node's over the last 24 hours, from the
     *     activity rollup each node writes every 10 s (in the list each node's as it last wrote them; a task alone
     *     has this node's freshest, as its charts do); {@code node} when the store keeps no rollup, or did not answer,
     *     and they are this node's since it started
     * @param outcomesUnavailable why the store did not answer, when it did not; null otherwise
     * @param params the parameters it declares, with their values: what a trigger with parameters may set (the
     *     values of secret ones, such as HTTP headers and passwords, hidden)
     * @param adoptedFrom the schedule of another scheduler it was adopted from ({@code @Scheduled on
     *     com.example.Reports.nightly()}); null for a task defined for AX
     */
    public record Task(
            String name,
            String trigger,
            String triggerInWords,
            String zone,
            String group,
            int priority,
            boolean transactional,
            boolean paused,
            List<Instant> nextFireTimes,
            List<InstanceSummary> lastInstances,
            long successes,
            long failures,
            long deadLetters,
            String outcomesScope,
            String outcomesUnavailable,
            Map<String, String> params,
            String adoptedFrom) {}

    /**
     * What a bulk replay of a task's dead letters did.
     *
     * @param task the task
     * @param replayed the instances replayed, each now in a new cycle of attempts
     * @param refused instances whose replay was refused (no longer DEAD: replayed meanwhile by another caller), with
     *     the reason
     * @param more whether the task has more dead letters than one call replays ({@value AxEndpoint#MAX_REPLAY})
     */
    public record Replayed(String task, List<String> replayed, Map<String, String> refused, boolean more) {}

    /**
     * An instance in a list.
     *
     * @param id its id
     * @param task its task
     * @param scheduledTime its fire time
     * @param state its state
     * @param attempt its attempt number
     * @param durationMillis how long its last attempt ran; null while none has ended (and in search results)
     * @param updatedAt when it last changed
     */
    public record InstanceSummary(
            String id,
            String task,
            Instant scheduledTime,
            String state,
            int attempt,
            Long durationMillis,
            Instant updatedAt) {}

    /**
     * {@code /actuator/ax/instances?...}: one page of a search, newest scheduled time first.
     *
     * @param page the page's number, from 0
     * @param size the page's size
     * @param more whether a later page has instances
     * @param instances the page
     */
    public record Instances(int page, int size, boolean more, List<InstanceSummary> instances) {}

    /**
     * {@code /actuator/ax/instances/{id}}: an instance and its full audit trail, oldest first.
     *
     * @param origin what made it: SERIES (its trigger), CATCH_UP, ON_DEMAND, DELAYED (AxScheduler)
     * @param key its key within the task; null when it has none
     * @param priority the priority its request gave it; null when it has its task's
     * @param payload the start of its payload; null when it has none, or in answers to an action
     * @param runId the workflow run it belongs to (a run's root has its own id); null when none, or in answers to an
     *     action
     * @param attempts each attempt, from its start to its end, read from the audit trail
     * @param deadLetter what its dead letter holds, while it is DEAD; null otherwise, or in answers to an action
     */
    public record Instance(
            String id,
            String task,
            Instant scheduledTime,
            String state,
            int attempt,
            String node,
            Instant updatedAt,
            String origin,
            String key,
            Integer priority,
            List<Audit> audit,
            Payload payload,
            String runId,
            List<Attempt> attempts,
            DeadLetterDetail deadLetter) {

        static Instance of(TaskInstance i, List<AuditEntry> trail) {
            return of(i, trail, null, null, null);
        }

        static Instance of(
                TaskInstance i, List<AuditEntry> trail, Payload payload, String runId, DeadLetterDetail deadLetter) {
            return new Instance(
                    i.id(),
                    i.taskName(),
                    i.scheduledTime(),
                    i.state().name(),
                    i.attempt(),
                    i.node(),
                    i.updatedAt(),
                    i.origin().name(),
                    i.key(),
                    i.priority(),
                    trail.stream().map(Audit::of).toList(),
                    payload,
                    runId,
                    AttemptTimeline.of(trail),
                    deadLetter);
        }
    }

    /**
     * One attempt.
     *
     * @param attempt its number
     * @param node the node that ran it
     * @param started when it began running
     * @param ended when it ended; null while it runs, or when a takeover ended it unrecorded
     * @param durationMillis how long it ran; null when it has not ended
     * @param outcome SUCCESS, FAILED, TIMEOUT or CANCELLED; RUNNING while it runs; TAKEN_OVER when its node crashed,
     *     froze, was cut off or restarted while it ran and another node (or the node's next start) took it over, or
     *     when another attempt began before an end was recorded
     * @param error the error of a FAILED or TIMEOUT attempt, or what happened to the node of one TAKEN_OVER; else null
     */
    public record Attempt(
            int attempt,
            String node,
            Instant started,
            Instant ended,
            Long durationMillis,
            String outcome,
            String error) {}

    /**
     * A DEAD instance's dead letter, on its instance.
     *
     * @param diedAt when it went DEAD
     * @param lastError the error of its last attempt
     * @param stackTrace the full stack trace of the last failure (empty for a timeout); null when the caller is not
     *     in the role that may read it ({@code ax.dashboard.stack-trace-role})
     * @param stackTraceRole that role, so that a reader without it learns whom to ask
     */
    public record DeadLetterDetail(Instant diedAt, String lastError, String stackTrace, String stackTraceRole) {

        static DeadLetterDetail of(DeadLetter d, boolean mayReadStackTrace, String role) {
            List<AttemptError> errors = d.attempts();
            String last =
                    errors.isEmpty() ? null : errors.get(errors.size() - 1).error();
            return new DeadLetterDetail(d.diedAt(), last, mayReadStackTrace ? d.lastStackTrace() : null, role);
        }
    }

    /**
     * The start of an instance's payload, as text: enough to recognize it, bounded so that a large payload never
     * makes a large answer.
     *
     * @param bytes its whole size
     * @param text its first {@value #MAX_BYTES} bytes read as UTF-8 (bytes that are not UTF-8 read as U+FFFD)
     * @param truncated whether {@code text} stops before the end
     */
    public record Payload(int bytes, String text, boolean truncated) {

        /** How many bytes of a payload an answer shows. */
        public static final int MAX_BYTES = 4096;

        static Payload of(byte[] payload) {
            int shown = Math.min(payload.length, MAX_BYTES);
            return new Payload(
                    payload.length,
                    new String(payload, 0, shown, java.nio.charset.StandardCharsets.UTF_8),
                    shown < payload.length);
        }
    }

    /**
     * One state change.
     *
     * @param takeover whether it records a takeover: the attempt ended with its node, not by its handler ({@link
     *     AuditEntry#isTakeover})
     */
    public record Audit(String from, String to, String node, int attempt, Instant at, String reason, boolean takeover) {

        static Audit of(AuditEntry e) {
            return new Audit(
                    e.from() == null ? null : e.from().name(),
                    e.to().name(),
                    e.node(),
                    e.attempt(),
                    e.at(),
                    e.reason(),
                    e.isTakeover());
        }
    }

    /** {@code /actuator/ax/dead-letters}: one page, newest first. */
    public record DeadLetters(long total, int page, int size, List<DeadLetterSummary> deadLetters) {}

    /**
     * One dead letter.
     *
     * @param instanceId the DEAD instance
     * @param task its task
     * @param scheduledTime its fire time
     * @param diedAt when it went DEAD
     * @param attempts how many attempts it had
     * @param lastError the error of its last attempt
     * @param errors every attempt's error, oldest first
     * @param params the task's parameters when it died
     */
    public record DeadLetterSummary(
            String instanceId,
            String task,
            Instant scheduledTime,
            Instant diedAt,
            int attempts,
            String lastError,
            List<AttemptError> errors,
            Map<String, String> params) {

        static DeadLetterSummary of(DeadLetter d) {
            List<AttemptError> errors = d.attempts();
            String last =
                    errors.isEmpty() ? null : errors.get(errors.size() - 1).error();
            return new DeadLetterSummary(
                    d.instanceId(),
                    d.taskName(),
                    d.scheduledTime(),
                    d.diedAt(),
                    errors.size(),
                    last,
                    errors,
                    d.params());
        }
    }

    /** The answer to "trigger now". */
    public record Triggered(String task, String instanceId) {}

    /** The answer to "pause" and "resume". */
    public record Paused(String task, boolean paused) {}

    /** Why a request was refused. */
    public record Error(int status, String error, String message) {}
}
