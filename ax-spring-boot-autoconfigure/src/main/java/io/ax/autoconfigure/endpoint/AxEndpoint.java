package io.ax.autoconfigure.endpoint;

import io.ax.autoconfigure.adopt.AdoptedTasks;
import io.ax.autoconfigure.adopt.quartz.QuartzImportOperation;
import io.ax.autoconfigure.endpoint.AxDescriptors.DeadLetterSummary;
import io.ax.autoconfigure.endpoint.AxDescriptors.InstanceSummary;
import io.ax.core.AuditEntry;
import io.ax.core.AxException;
import io.ax.core.AxTask;
import io.ax.core.DeadLetter;
import io.ax.core.IllegalTransitionException;
import io.ax.core.InstanceDetails;
import io.ax.core.InstanceState;
import io.ax.core.InvalidScheduleException;
import io.ax.core.InvalidTaskException;
import io.ax.core.Operator;
import io.ax.core.SecretParams;
import io.ax.core.TaskInstance;
import io.ax.core.UnknownInstanceException;
import io.ax.core.UnknownTaskException;
import io.ax.core.clock.AxClock;
import io.ax.core.clock.ClockStatus;
import io.ax.core.cluster.ClusterView;
import io.ax.core.engine.Activity;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.Backlog;
import io.ax.core.engine.EngineStatus;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.StoreDescription;
import io.ax.core.store.StoredTask;
import io.ax.core.trigger.CronTrigger;
import io.ax.core.trigger.SpacedTrigger;
import io.ax.core.trigger.Trigger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;

/**
 * The {@code ax} Actuator endpoint: what runs, what is late, what is stuck, what died and why, who leads; and the
 * operator's actions. Reads:
 *
 * <ul>
 *   <li>{@code GET /actuator/ax}: node, role, leader, epoch, live nodes, backlog, wheel, executing, clock, dead
 *       letters;
 *   <li>{@code GET /actuator/ax/tasks} and {@code /actuator/ax/tasks/{name}}: trigger, zone, next fire times,
 *       paused, newest instances with state and duration, success, failure and dead-letter counts of the last 24
 *       hours on every node (from the activity rollup; this node's since it started when the store keeps none or
 *       does not answer);
 *   <li>{@code GET /actuator/ax/overview?window=hour|day&task=}: what the cluster ran over the last hour (minute
 *       by minute, the default) or day (ten minutes a bucket), of all tasks or one: fires, outcomes, dead letters,
 *       lateness p50/p99;
 *   <li>{@code GET /actuator/ax/instances?task=&state=&from=&to=&page=0&size=20}: a search, each criterion
 *       optional ({@code from} inclusive, {@code to} exclusive, ISO-8601 instants, on the scheduled time), newest
 *       first;
 *   <li>{@code GET /actuator/ax/instances/{id}}: state, full audit trail and the start of its payload;
 *   <li>{@code GET /actuator/ax/dead-letters?page=0&size=20}: dead letters, newest first, with the last error.
 * </ul>
 *
 * Writes (Actuator write operations), each audited and logged with the caller's principal and remote address. The
 * endpoint is <b>read-only by default</b>: writes answer as if absent until the application allows them with {@code
 * management.endpoint.ax.access=unrestricted}, which it should do only behind its own security (an operator role).
 *
 * <ul>
 *   <li>{@code POST /actuator/ax/tasks/{name}/trigger}, {@code .../pause}, {@code .../resume};
 *   <li>{@code DELETE /actuator/ax/instances/{id}} (or {@code POST .../instances/{id}/cancel}): cancel an instance
 *       that waits;
 *   <li>{@code POST /actuator/ax/dead-letters/{id}/replay} (or {@code POST .../instances/{id}/replay}): a new cycle
 *       of attempts of a DEAD instance;
 *   <li>{@code POST /actuator/ax/tasks/{name}/replay-dead-letters}: the same for every dead letter of a task (at
 *       most {@value #MAX_REPLAY} a call);
 *   <li>{@code POST /actuator/ax/quartz-import}: reports what an import of the application's Quartz JDBC job store
 *       would do, or does it with {@code apply} (see {@link #importStore}).
 * </ul>
 *
 * Unknown tasks, instances and paths answer 404 (an id AX cannot have made is simply unknown, and never reaches a
 * store's query), an action the instance's state does not allow 409, a bad page or argument 400, each with a
 * message; none of them writes anything.
 */
@WebEndpoint(id = "ax", defaultAccess = Access.READ_ONLY)
public class AxEndpoint {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(AxEndpoint.class);

    static final int DEFAULT_PAGE_SIZE = 20;
    static final int MAX_PAGE_SIZE = 200;
    private static final int NEXT_FIRE_TIMES = 5;
    private static final int INSTANCES_IN_LIST = 3;
    private static final int INSTANCES_IN_DETAIL = 10;
    /** The most dead letters one bulk replay replays: a bound on one request's work. */
    static final int MAX_REPLAY = 500;

    private static final int REPLAY_PAGE = 500;

    private final AxEngine engine;
    private final AdoptedTasks adopted;
    private final EngineStatus status;
    private final InstanceStore store;
    private final TaskOutcomes outcomes;
    private final AxClock clock;
    /** Who may read a dead letter's stack trace on its instance: a stack trace tells much of the code behind it. */
    private final String stackTraceRole;

    /** The import of the application's Quartz job store; gives null without Quartz or {@code ax.adopt.quartz}. */
    private final Supplier<QuartzImportOperation> quartzImport;

    AxEndpoint(AxEngine engine, TaskActivity activity, AxClock clock, String stackTraceRole, AdoptedTasks adopted) {
        this(engine, activity, clock, stackTraceRole, adopted, () -> null);
    }

    AxEndpoint(
            AxEngine engine,
            TaskActivity activity,
            AxClock clock,
            String stackTraceRole,
            AdoptedTasks adopted,
            Supplier<QuartzImportOperation> quartzImport) {
        this.engine = engine;
        this.adopted = adopted;
        this.quartzImport = quartzImport;
        this.status = engine.status();
        this.store = engine.store();
        this.outcomes = new TaskOutcomes(
                store.activity(),
                task -> engine.activity(task, TaskOutcomes.WINDOW, TaskOutcomes.WINDOW),
                activity,
                clock);
        this.clock = clock;
        this.stackTraceRole = stackTraceRole;
    }

    /** This node and its engine. */
    @ReadOperation
    public AxDescriptors.Node node() {
        ClusterView cluster = status.cluster();
        Backlog backlog = status.backlog();
        ClockStatus clock = status.clockStatus();
        StoreDescription described = store.describe();
        return new AxDescriptors.Node(
                cluster.nodeId(),
                described.kind(),
                described.toString(),
                lower(cluster.role()),
                cluster.leader(),
                cluster.epoch(),
                cluster.liveNodes(),
                engine.isRunning(),
                backlog.perGroup(),
                backlog.oldestAge().toMillis(),
                backlog.perPriority(),
                status.waitingForPermits(),
                status.wheelSize(),
                status.executing(),
                new AxDescriptors.Clock(
                        clock.paused() ? "paused" : "ok",
                        clock.pauseLeft().toMillis(),
                        clock.jumps(),
                        clock.lastJump() == null ? null : clock.lastJump().toMillis(),
                        clock.lastJumpAt(),
                        status.clusterTime()
                                .map(t -> new AxDescriptors.ClusterTime(
                                        t.source(),
                                        t.offset().toNanos() / 1_000,
                                        t.uncertainty().toNanos() / 1_000,
                                        t.measuredAt(),
                                        t.failing()))
                                .orElse(null)),
                store.deadLetterCount(),
                engine.tasks().size(),
                cluster.leaseExpiresAt(),
                cluster.nodes().stream()
                        .map(n -> new AxDescriptors.Member(
                                n.nodeId(),
                                n.host(),
                                n.startedAt(),
                                n.heartbeatAge().toMillis(),
                                n.capacityFree()))
                        .toList(),
                status.reassigned(),
                status.partitions().map(AxDescriptors.Partitions::of).orElse(null),
                status.dueInStore().map(d -> d.count()).orElse(null),
                status.dueInStore().map(d -> d.oldestAge().toMillis()).orElse(null),
                status.lag().toMillis(),
                status.oldestDueAge().toMillis(),
                status.repairedSeries());
    }

    /**
     * {@code tasks}, or one page of {@code dead-letters}. The page and size arrive as text and are read here, so that
     * garbage ({@code size=abc}) gets the same 400 with a message as a number out of range.
     */
    @ReadOperation
    public WebEndpointResponse<Object> section(
            @Selector String section,
            @Nullable String page,
            @Nullable String size,
            @Nullable String task,
            @Nullable String state,
            @Nullable String from,
            @Nullable String to,
            @Nullable String window) {
        return switch (section) {
            case "tasks" -> ok(this::tasks);
            case "overview" -> overview(window, task);
            case "workflows" -> ok(() -> WorkflowDescriptors.of(engine));
            case "dead-letters" -> deadLetters(page, size);
            case "instances" ->
                InstanceSearchRequest.parse(task, state, from, to, page, size)
                        .map(this::search, AxEndpoint::badRequest);
            default -> notFound(section);
        };
    }

    /** {@code tasks/{name}} or {@code instances/{id}}. */
    @ReadOperation
    public WebEndpointResponse<Object> item(@Selector String section, @Selector String id) {
        return switch (section) {
            case "tasks" ->
                ok(() -> {
                    AxTask task = engine.task(id).orElseThrow(() -> new UnknownTaskException(id));
                    return task(task, true, outcomes.of(task.name()));
                });
            case "instances" -> ok(() -> instance(id));
            default -> notFound(section);
        };
    }

    /**
     * {@code tasks/{name}} with the JSON body {@code {"params": "region=us&format=csv"}}: runs the task now with
     * parameters for this run (only those it declares, checked like the task; see {@link RunParameters}). A trigger
     * without parameters is {@link #act}'s.
     */
    @WriteOperation
    public WebEndpointResponse<Object> triggerWith(
            @Selector String section, @Selector String id, @Nullable String params) {
        if (!"tasks".equals(section)) {
            return error(404, "Only tasks take parameters, not " + section);
        }
        return RunParameters.read(params)
                .map(p -> ok(
                        () -> new AxDescriptors.Triggered(id, engine.triggerNow(id, p, EndpointOperators.current()))))
                .orElseGet(() -> error(400, RunParameters.MALFORMED));
    }

    /**
     * {@code quartz-import} with the JSON body {@code {"apply": "true", "tablePrefix": "QRTZ_", "schedulerName":
     * "quartzScheduler"}} (each optional): imports the application's Quartz JDBC job store ({@link
     * QuartzImportOperation}); a dry run, which writes nothing, unless {@code apply} is {@code true}. Answers the
     * report; 404 when the application does not adopt Quartz ({@code ax.adopt.quartz}).
     */
    @WriteOperation
    public WebEndpointResponse<Object> importStore(
            @Selector String section,
            @Nullable String apply,
            @Nullable String tablePrefix,
            @Nullable String schedulerName) {
        if (!"quartz-import".equals(section)) {
            return notFound(section);
        }
        QuartzImportOperation operation = quartzImport.get();
        if (operation == null) {
            return error(404, "No Quartz import here: it needs Quartz and ax.adopt.quartz=true");
        }
        if (apply != null && !apply.equals("true") && !apply.equals("false")) {
            return error(400, "apply must be true or false, was '" + apply + "'");
        }
        boolean applying = "true".equals(apply);
        Operator by = EndpointOperators.current();
        LOG.info(
                "Quartz import ({}) of scheduler '{}', tables {}, asked by {} from {}",
                applying ? "apply" : "dry run",
                schedulerName == null ? "of spring.quartz" : schedulerName,
                tablePrefix == null ? "of spring.quartz" : tablePrefix + "*",
                by.name(),
                by.address());
        try {
            return ok(() -> operation.run(tablePrefix, schedulerName, applying));
        } catch (IllegalArgumentException e) {
            return error(400, e.getMessage());
        }
    }

    /** An operator's action on a task, an instance or a dead letter; who asks is audited (see {@link EndpointOperators}). */
    @WriteOperation
    public WebEndpointResponse<Object> act(@Selector String section, @Selector String id, @Selector String action) {
        String what = section + "/" + action;
        return switch (what) {
            case "tasks/trigger" ->
                ok(() -> new AxDescriptors.Triggered(id, engine.triggerNow(id, EndpointOperators.current())));
            case "tasks/pause" ->
                ok(() -> {
                    engine.pause(id, EndpointOperators.current());
                    return new AxDescriptors.Paused(id, true);
                });
            case "tasks/resume" ->
                ok(() -> {
                    engine.resume(id, EndpointOperators.current());
                    return new AxDescriptors.Paused(id, false);
                });
            case "instances/cancel" -> cancel(section, id);
            case "instances/replay", "dead-letters/replay" ->
                ok(() -> described(engine.replay(id, EndpointOperators.current())));
            case "tasks/replay-dead-letters" -> ok(() -> replayDead(id, EndpointOperators.current()));
            default -> error(404, "No action '" + action + "' on " + section);
        };
    }

    /** Cancels an instance that waits for its fire time or its next attempt. */
    @DeleteOperation
    public WebEndpointResponse<Object> cancel(@Selector String section, @Selector String id) {
        if (!"instances".equals(section)) {
            return error(404, "Only instances can be deleted (cancelled), not " + section);
        }
        return ok(() -> described(engine.cancelWaiting(id, EndpointOperators.current())));
    }

    private WebEndpointResponse<Object> search(InstanceSearchRequest request) {
        List<TaskInstance> found = engine.search(request.query());
        boolean more = found.size() > request.size();
        List<InstanceSummary> page =
                found.stream().limit(request.size()).map(this::searchSummary).toList();
        return new WebEndpointResponse<>(new AxDescriptors.Instances(request.page(), request.size(), more, page));
    }

    /** A search hit: without the last attempt's duration, which would cost one audit read per row. */
    private InstanceSummary searchSummary(TaskInstance i) {
        return new InstanceSummary(
                i.id(), i.taskName(), i.scheduledTime(), i.state().name(), i.attempt(), null, i.updatedAt());
    }

    private static WebEndpointResponse<Object> badRequest(String message) {
        return error(400, message);
    }

    private AxDescriptors.Tasks tasks() {
        TaskOutcomes.Read ended = outcomes.all(); // one read of the store for every task
        List<AxDescriptors.Task> tasks = engine.tasks().stream()
                .sorted(Comparator.comparing(AxTask::name))
                .map(t -> task(t, false, ended))
                .toList();
        return new AxDescriptors.Tasks(tasks);
    }

    private AxDescriptors.Task task(AxTask task, boolean detail, TaskOutcomes.Read ended) {
        Optional<StoredTask> stored = store.findTask(task.name());
        TaskActivity.Counts counts = ended.of(task.name());
        List<InstanceSummary> last =
                engine.instancesOf(task.name(), detail ? INSTANCES_IN_DETAIL : INSTANCES_IN_LIST).stream()
                        .map(this::summary)
                        .toList();
        boolean paused = stored.map(StoredTask::paused).orElse(false) || engine.isPaused(task.name());
        return new AxDescriptors.Task(
                task.name(),
                task.trigger().describe(),
                TriggerWords.of(task.trigger()),
                zone(task.trigger()),
                task.group(),
                task.priority(),
                task.transactional(),
                paused,
                // a paused series fires nothing: its next fire is planned from the moment it is resumed
                paused
                        ? List.of()
                        : nextFireTimes(
                                task.trigger(),
                                stored.map(StoredTask::nextFireTime).orElse(null)),
                last,
                counts.successes(),
                counts.failures(),
                counts.deadLetters(),
                ended.cluster() ? "cluster" : "node",
                ended.unavailable(),
                SecretParams.redact(task.params()),
                adopted.origin(task.name()).orElse(null));
    }

    /** The zone of a cron trigger, spaced or not; null for other triggers. */
    private static String zone(Trigger trigger) {
        Trigger fires = trigger instanceof SpacedTrigger spaced ? spaced.trigger() : trigger;
        return fires instanceof CronTrigger cron ? cron.zone().getId() : null;
    }

    /**
     * Replays the task's dead letters, oldest death first, at most {@link #MAX_REPLAY} in one call; each replay is
     * audited as an operator's, like one replayed alone.
     */
    private AxDescriptors.Replayed replayDead(String taskName, Operator by) {
        engine.task(taskName).orElseThrow(() -> new UnknownTaskException(taskName));
        List<String> ids = new ArrayList<>();
        long total = store.deadLetterCount();
        for (int offset = 0; offset < total && ids.size() <= MAX_REPLAY; offset += REPLAY_PAGE) {
            for (DeadLetter d : store.deadLetters(offset, REPLAY_PAGE)) {
                if (d.taskName().equals(taskName)) {
                    ids.add(d.instanceId());
                }
            }
        }
        boolean more = ids.size() > MAX_REPLAY;
        List<String> oldestFirst = new ArrayList<>(ids.subList(0, Math.min(ids.size(), MAX_REPLAY)));
        java.util.Collections.reverse(oldestFirst);
        List<String> replayed = new ArrayList<>();
        Map<String, String> refused = new java.util.LinkedHashMap<>();
        for (String id : oldestFirst) {
            try {
                engine.replay(id, by);
                replayed.add(id);
            } catch (IllegalTransitionException | UnknownInstanceException e) {
                refused.put(id, e.getMessage());
            }
        }
        return new AxDescriptors.Replayed(taskName, replayed, refused, more);
    }

    /** The pending fire, then what the trigger computes after it; a fixed delay knows only the pending one. */
    private List<Instant> nextFireTimes(Trigger trigger, Instant pending) {
        List<Instant> times = new ArrayList<>(NEXT_FIRE_TIMES);
        Instant t = pending != null
                ? pending
                : trigger.firstFireTime(clock.instant()).orElse(null);
        while (t != null && times.size() < NEXT_FIRE_TIMES) {
            times.add(t);
            if (trigger.measuresFromCompletion()) {
                break;
            }
            t = trigger.nextFireTime(t, t).orElse(null);
        }
        return times;
    }

    private InstanceSummary summary(TaskInstance i) {
        return new InstanceSummary(
                i.id(),
                i.taskName(),
                i.scheduledTime(),
                i.state().name(),
                i.attempt(),
                lastAttemptMillis(i.id()),
                i.updatedAt());
    }

    /** How long the last attempt ran: from its RUNNING row to the row after it. */
    private Long lastAttemptMillis(String instanceId) {
        List<AuditEntry> trail =
                engine.find(instanceId).map(InstanceDetails::auditTrail).orElse(List.of());
        for (int i = trail.size() - 2; i >= 0; i--) {
            if (trail.get(i).to() == InstanceState.RUNNING) {
                return Duration.between(trail.get(i).at(), trail.get(i + 1).at())
                        .toMillis();
            }
        }
        return null;
    }

    private AxDescriptors.Instance instance(String id) {
        InstanceDetails details = engine.find(id).orElseThrow(() -> new UnknownInstanceException(id));
        TaskInstance i = details.instance();
        AxDescriptors.Payload payload =
                store.payload(id).map(AxDescriptors.Payload::of).orElse(null);
        String runId = i.runId() != null ? i.runId() : engine.workflowGraph().isRoot(i.taskName()) ? i.id() : null;
        AxDescriptors.DeadLetterDetail deadLetter = i.state() == InstanceState.DEAD
                ? store.deadLetter(id)
                        .map(d -> AxDescriptors.DeadLetterDetail.of(
                                d, EndpointOperators.inRole(stackTraceRole), stackTraceRole))
                        .orElse(null)
                : null;
        return AxDescriptors.Instance.of(i, details.auditTrail(), payload, runId, deadLetter);
    }

    private WebEndpointResponse<Object> overview(@Nullable String window, @Nullable String task) {
        String w = window == null || window.isBlank() ? "hour" : window.strip();
        Duration span;
        Duration bucket;
        switch (w) {
            case "hour" -> {
                span = Duration.ofHours(1);
                bucket = Duration.ofMinutes(1);
            }
            case "day" -> {
                span = Duration.ofDays(1);
                bucket = Duration.ofMinutes(10);
            }
            default -> {
                return error(400, "window must be hour or day, was '" + w + "'");
            }
        }
        String name = task == null || task.isBlank() ? null : task.strip();
        return ok(() -> {
            if (name != null && engine.task(name).isEmpty()) {
                throw new UnknownTaskException(name);
            }
            Activity read = engine.activity(name, span, bucket);
            List<Activity.Bucket> lastMinutes = bucket.equals(Duration.ofMinutes(1))
                    ? read.buckets()
                    : engine.activity(name, Duration.ofMinutes(2), Duration.ofMinutes(1))
                            .buckets();
            // the last bucket is the minute still going on; the one before it is the last full one
            long lastFull = lastMinutes.get(lastMinutes.size() - 2).fires();
            return new AxDescriptors.Overview(
                    engine.nodeId(),
                    read.cluster() ? "cluster" : "node",
                    read.unavailable(),
                    w,
                    name,
                    bucket.toMinutes(),
                    lastFull,
                    read.latenessP50Millis(),
                    read.latenessP99Millis(),
                    read.buckets().stream().map(AxDescriptors.Bucket::of).toList());
        });
    }

    private static AxDescriptors.Instance described(InstanceDetails details) {
        return AxDescriptors.Instance.of(details.instance(), details.auditTrail());
    }

    private WebEndpointResponse<Object> deadLetters(String page, String size) {
        Integer p = page == null ? Integer.valueOf(0) : wholeNumber(page);
        Integer s = size == null ? Integer.valueOf(DEFAULT_PAGE_SIZE) : wholeNumber(size);
        if (p == null || s == null || p < 0 || s < 1 || s > MAX_PAGE_SIZE) {
            return error(400, "page must be >= 0 and size between 1 and " + MAX_PAGE_SIZE);
        }
        long offset = (long) p * s; // an int product would wrap to a negative offset, which a store answers with a 500
        if (offset > Integer.MAX_VALUE) {
            return error(
                    400,
                    "page " + p + " of size " + s + " starts beyond the last row a store can skip to ("
                            + Integer.MAX_VALUE + ")");
        }
        List<DeadLetterSummary> letters = store.deadLetters((int) offset, s).stream()
                .map(DeadLetterSummary::of)
                .toList();
        return new WebEndpointResponse<>(new AxDescriptors.DeadLetters(store.deadLetterCount(), p, s, letters));
    }

    /** The int a parameter holds, or null when it holds anything else (text, a fraction, too many digits). */
    private static Integer wholeNumber(String text) {
        try {
            return Integer.valueOf(text.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static WebEndpointResponse<Object> ok(Supplier<Object> answer) {
        try {
            return new WebEndpointResponse<>(answer.get());
        } catch (UnknownTaskException | UnknownInstanceException e) {
            return error(404, e.getMessage());
        } catch (InvalidScheduleException | InvalidTaskException e) {
            return error(400, e.getMessage());
        } catch (IllegalTransitionException e) {
            return error(409, e.getMessage());
        } catch (AxException e) {
            return error(409, e.getMessage());
        }
    }

    private static WebEndpointResponse<Object> notFound(String section) {
        return error(404, "No such part of the ax endpoint: '" + section + "'");
    }

    private static WebEndpointResponse<Object> error(int status, String message) {
        String reason = switch (status) {
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            default -> "Conflict";
        };
        return new WebEndpointResponse<>(new AxDescriptors.Error(status, reason, message), status);
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
