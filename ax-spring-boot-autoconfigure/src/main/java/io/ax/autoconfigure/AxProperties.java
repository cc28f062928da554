package io.ax.autoconfigure;

import io.ax.core.engine.PoolSettings;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/** Settings of AX, under {@code ax.*}. */
@ConfigurationProperties("ax")
public class AxProperties {

    /** Whether AX runs at all; false turns every AX bean off. */
    private boolean enabled = true;

    /**
     * Whether a key under ax. that no AX setting reads (a typo, say) fails start-up; otherwise it is reported in one
     * WARN at start-up. Environment variables are not checked.
     */
    private boolean strictProperties;

    /**
     * This node's id in the cluster and the audit trail, unique among the live nodes; unset, the host name and the
     * process id. A stable id lets a restarted node resume its own unfinished work at once.
     */
    private String nodeId;

    /** Time zone of cron expressions that name none: UTC unless set here, never the system's default zone. */
    private ZoneId defaultZone = ZoneOffset.UTC;

    /** Time wheel settings. */
    private final Wheel wheel = new Wheel();

    /**
     * Execution pools by task group (@AxJob group, default 'default'); a group not listed gets the defaults. Each
     * group takes threads (4: attempts of the group that run at once on this node), queue-capacity (1000: due
     * instances that wait for a worker; a full queue sends the next back to wait), overtake-limit (30s: how long a
     * waiting instance may be overtaken by higher priorities), virtual-threads (workers on virtual threads, Java 21
     * and later), cluster-limit (0: at most this many attempts of the group at once on all nodes together) and rate
     * (at most so many starts in any window on all nodes together, such as 100/1m).
     */
    private final Map<String, Pool> pools = new LinkedHashMap<>();

    /** Dispatch settings. */
    private final Dispatch dispatch = new Dispatch();

    /** Misfire handling. */
    private final Misfire misfire = new Misfire();

    /** Shutdown behaviour. */
    private final Shutdown shutdown = new Shutdown();

    /** In-memory store settings. */
    private final Memory memory = new Memory();

    /** Payloads of scheduled executions. */
    private final Payload payload = new Payload();

    /** The window of PERSISTENT instances the wheel holds; later ones wait in the store. */
    private final Prefetch prefetch = new Prefetch();

    /** JDBC store settings: used when the application has a DataSource. */
    private final Jdbc jdbc = new Jdbc();

    /** Clock-jump guard. */
    private final Clock clock = new Clock();

    /** Micrometer metrics. */
    private final Metrics metrics = new Metrics();

    /** The 'ax' health component. */
    private final Health health = new Health();

    /** The cluster: heartbeats, partitions and the cluster lease. */
    private final Cluster cluster = new Cluster();

    /** How long finished history stays in the store. */
    private final Retention retention = new Retention();

    /** The operator's web dashboard. */
    private final Dashboard dashboard = new Dashboard();

    /** Existing schedules that AX runs instead of their own scheduler: Spring's {@code @Scheduled}, Quartz jobs. */
    private final Adopt adopt = new Adopt();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public boolean isStrictProperties() {
        return strictProperties;
    }

    public void setStrictProperties(boolean strictProperties) {
        this.strictProperties = strictProperties;
    }

    public String getNodeId() {
        return nodeId;
    }

    public void setNodeId(String nodeId) {
        this.nodeId = nodeId;
    }

    public ZoneId getDefaultZone() {
        return defaultZone;
    }

    public void setDefaultZone(ZoneId defaultZone) {
        this.defaultZone = defaultZone;
    }

    public Wheel getWheel() {
        return wheel;
    }

    public Map<String, Pool> getPools() {
        return pools;
    }

    public Dispatch getDispatch() {
        return dispatch;
    }

    public Misfire getMisfire() {
        return misfire;
    }

    public Shutdown getShutdown() {
        return shutdown;
    }

    public Memory getMemory() {
        return memory;
    }

    public Payload getPayload() {
        return payload;
    }

    public Prefetch getPrefetch() {
        return prefetch;
    }

    public Jdbc getJdbc() {
        return jdbc;
    }

    public Clock getClock() {
        return clock;
    }

    public Metrics getMetrics() {
        return metrics;
    }

    public Cluster getCluster() {
        return cluster;
    }

    public Health getHealth() {
        return health;
    }

    public Retention getRetention() {
        return retention;
    }

    public Adopt getAdopt() {
        return adopt;
    }

    public Dashboard getDashboard() {
        return dashboard;
    }

    /** Time wheel settings. */
    public static class Wheel {

        /** Resolution of the time wheel: fire times are met within one tick. */
        private Duration tick = Duration.ofMillis(1);

        public Duration getTick() {
            return tick;
        }

        public void setTick(Duration tick) {
            this.tick = tick;
        }
    }

    /** One execution pool. */
    public static class Pool {

        /** Worker threads of the pool. */
        private int threads = 4;

        /** Due instances that may wait for a worker; beyond it an instance is sent back to wait and tried later. */
        private int queueCapacity = 1000;

        /**
         * Whether the workers are virtual threads (Java 21 and later; on an earlier JVM, true stops start-up). The
         * limit of threads still holds. Unset, the group follows spring.threads.virtual.enabled.
         */
        private Boolean virtualThreads;

        /**
         * How long an instance waiting for a worker may be overtaken by instances of higher priority; after it, it
         * goes before everything that came after it.
         */
        private Duration overtakeLimit = PoolSettings.DEFAULT_OVERTAKE_LIMIT;

        /**
         * At most this many attempts of the group run at once on all nodes together (a permit each, in the database
         * or, with ax.redis.permits, on Redis); 0 for no limit beyond each node's threads.
         */
        private int clusterLimit;

        /**
         * At most so many attempts of the group start in any window, on all nodes together: <count>/<window>, e.g.
         * 100/1m (a sliding window on the database's clock); unset for none.
         */
        private String rate;

        public String getRate() {
            return rate;
        }

        public void setRate(String rate) {
            this.rate = rate;
        }

        public int getClusterLimit() {
            return clusterLimit;
        }

        public void setClusterLimit(int clusterLimit) {
            this.clusterLimit = clusterLimit;
        }

        public int getThreads() {
            return threads;
        }

        public void setThreads(int threads) {
            this.threads = threads;
        }

        public int getQueueCapacity() {
            return queueCapacity;
        }

        public void setQueueCapacity(int queueCapacity) {
            this.queueCapacity = queueCapacity;
        }

        public Duration getOvertakeLimit() {
            return overtakeLimit;
        }

        public void setOvertakeLimit(Duration overtakeLimit) {
            this.overtakeLimit = overtakeLimit;
        }

        public Boolean getVirtualThreads() {
            return virtualThreads;
        }

        public void setVirtualThreads(Boolean virtualThreads) {
            this.virtualThreads = virtualThreads;
        }
    }

    /** Dispatch settings. */
    public static class Dispatch {

        /** Wait before an instance sent back by a full pool is tried again. */
        private Duration rejectionBackoff = Duration.ofSeconds(1);

        public Duration getRejectionBackoff() {
            return rejectionBackoff;
        }

        public void setRejectionBackoff(Duration rejectionBackoff) {
            this.rejectionBackoff = rejectionBackoff;
        }
    }

    /** Which Spring {@code @Scheduled} methods AX adopts. */
    public enum ScheduledAdoption {
        /** None: Spring's scheduler runs them all, on every node. */
        OFF,
        /** Only those that also carry ShedLock's {@code @SchedulerLock}: the ones meant to run once per cluster. */
        LOCKED,
        /** All of them. */
        ALL
    }

    /** What AX does at start with the Quartz JDBC job store of the application ({@code spring.quartz.*}). */
    public enum QuartzImportAtStart {
        /** Nothing. */
        OFF,
        /** Reads it and logs what an import would do, writing nothing. */
        DRY_RUN,
        /** Imports it and logs what was done. */
        APPLY
    }

    /** Existing schedules that AX runs, once per fire across the cluster, instead of their own scheduler. */
    public static class Adopt {

        /**
         * Which Spring @Scheduled methods AX runs instead of Spring's scheduler: off, locked (only those that also
         * carry ShedLock's @SchedulerLock) or all.
         */
        private ScheduledAdoption scheduled = ScheduledAdoption.OFF;

        /**
         * Whether AX runs the Quartz jobs and triggers that spring-boot-starter-quartz would schedule, instead of
         * Quartz's scheduler.
         */
        private boolean quartz = false;

        /**
         * How long one run of an adopted job may take before it is interrupted, where the job sets no bound of its
         * own (ShedLock's lockAtMostFor is one).
         */
        private Duration timeout = Duration.ofHours(1);

        /**
         * Whether the run of an adopted method under ShedLock's @SchedulerLock also takes its lock from ShedLock's
         * LockProvider: for a rolling switch, while replicas without AX still run the method under ShedLock. The
         * first to get the lock runs the method; the other passes its turn, as ShedLock does.
         */
        private boolean takeShedlockLocks = false;

        public boolean isTakeShedlockLocks() {
            return takeShedlockLocks;
        }

        public void setTakeShedlockLocks(boolean takeShedlockLocks) {
            this.takeShedlockLocks = takeShedlockLocks;
        }

        /**
         * Whether AX imports the application's Quartz JDBC job store (the tables and scheduler that spring.quartz.*
         * names) once at start, with ax.adopt.quartz=true: off, dry-run (logs the report, writes nothing) or apply
         * (imports and logs the report).
         */
        private QuartzImportAtStart quartzImport = QuartzImportAtStart.OFF;

        public QuartzImportAtStart getQuartzImport() {
            return quartzImport;
        }

        public void setQuartzImport(QuartzImportAtStart quartzImport) {
            this.quartzImport = quartzImport;
        }

        public ScheduledAdoption getScheduled() {
            return scheduled;
        }

        public void setScheduled(ScheduledAdoption scheduled) {
            this.scheduled = scheduled;
        }

        public boolean isQuartz() {
            return quartz;
        }

        public void setQuartz(boolean quartz) {
            this.quartz = quartz;
        }

        public Duration getTimeout() {
            return timeout;
        }

        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }
    }

    /** Misfire handling. */
    public static class Misfire {

        /** How late a recurring fire may be before it counts as missed and the task's misfire policy applies. */
        private Duration threshold = Duration.ofSeconds(5);

        /** How many instances a FIRE_ALL misfire policy creates at most for the missed fire times of a task. */
        private int maxCatchUp = 100;

        public int getMaxCatchUp() {
            return maxCatchUp;
        }

        public void setMaxCatchUp(int maxCatchUp) {
            this.maxCatchUp = maxCatchUp;
        }

        public Duration getThreshold() {
            return threshold;
        }

        public void setThreshold(Duration threshold) {
            this.threshold = threshold;
        }
    }

    /** Shutdown behaviour. */
    public static class Shutdown {

        /**
         * How long shutdown waits for running instances before interrupting them; an attempt interrupted so is recorded
         * as a takeover and runs again on another node.
         */
        private Duration await = Duration.ofSeconds(10);

        /**
         * A folder where a node keeps what it committed in its last two minutes (a file each commit is appended to
         * and that is written anew each heartbeat, and one left as it stops), and where the nodes that run on (or the
         * node's own next start) take what a node that stopped or crashed left: a failover to a standby that had not
         * received that node's last commits is then named like one that loses a running node's. One folder per
         * cluster: on the nodes' host, or a volume every node mounts. Unset: what a node remembers goes with it.
         */
        private String recentCommitsDir;

        public String getRecentCommitsDir() {
            return recentCommitsDir;
        }

        public void setRecentCommitsDir(String recentCommitsDir) {
            this.recentCommitsDir = recentCommitsDir;
        }

        public Duration getAwait() {
            return await;
        }

        public void setAwait(Duration await) {
            this.await = await;
        }
    }

    /** In-memory store settings. */
    public static class Memory {

        /**
         * Finished instances the in-memory store remembers (with their audit trails), and finished MEMORY instances
         * any store remembers; older ones are forgotten.
         */
        private int maxFinishedInstances = 10_000;

        public int getMaxFinishedInstances() {
            return maxFinishedInstances;
        }

        public void setMaxFinishedInstances(int maxFinishedInstances) {
            this.maxFinishedInstances = maxFinishedInstances;
        }
    }

    /** Payload settings. */
    public static class Payload {

        /** The largest payload AxScheduler accepts, after encoding. At most 16 MB (the MySQL column's limit). */
        private DataSize maxSize = DataSize.ofKilobytes(64);

        public DataSize getMaxSize() {
            return maxSize;
        }

        public void setMaxSize(DataSize maxSize) {
            if (maxSize.toBytes() < 1 || maxSize.toBytes() > MAX_PAYLOAD_BYTES) {
                throw new IllegalArgumentException(
                        "ax.payload.max-size must be between 1 B and 16 MB (16777215 bytes), was " + maxSize);
            }
            this.maxSize = maxSize;
        }
    }

    /** 2^24 - 1: the largest value a MySQL/MariaDB MEDIUMBLOB holds. */
    static final long MAX_PAYLOAD_BYTES = 16_777_215L;

    /** Prefetch window settings. */
    public static class Prefetch {

        /** How far ahead the wheel holds PERSISTENT instances; later ones wait in the store and are loaded in time. */
        private Duration window = Duration.ofSeconds(60);

        /** How many instances one read of the window returns at most. */
        private int pageSize = 5_000;

        /** How many loaded instances the wheel holds at most; a larger backlog is loaded as the wheel drains. */
        private int maxInstances = 100_000;

        public Duration getWindow() {
            return window;
        }

        public void setWindow(Duration window) {
            this.window = window;
        }

        public int getPageSize() {
            return pageSize;
        }

        public void setPageSize(int pageSize) {
            this.pageSize = pageSize;
        }

        public int getMaxInstances() {
            return maxInstances;
        }

        public void setMaxInstances(int maxInstances) {
            this.maxInstances = maxInstances;
        }
    }

    /** JDBC store settings. */
    public static class Jdbc {

        /** Whether AX keeps its instances in the application's DataSource when there is one. */
        private boolean enabled = true;

        /**
         * When AX creates and upgrades its tables: ALWAYS (at every start, on any database), EMBEDDED (H2 only) or
         * NEVER (the team runs AX's migrations itself; start-up stops if they are missing or not all applied).
         */
        private InitializeSchema initializeSchema = InitializeSchema.ALWAYS;

        /** Prefix of AX's table names: a letter, then letters, digits or underscores. */
        private String tablePrefix = "ax_";

        /**
         * How long each of AX's statements waits at most for the database's answer (set on each connection AX
         * borrows, with Connection.setNetworkTimeout): a network that drops packets without a word then fails the
         * statement, which AX retries, instead of holding it. Zero leaves the driver's own socket timeout, often
         * none. Longer than AX's longest statement; it does not touch the application's own connections.
         */
        private Duration networkTimeout = Duration.ofSeconds(10);

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public InitializeSchema getInitializeSchema() {
            return initializeSchema;
        }

        public void setInitializeSchema(InitializeSchema initializeSchema) {
            this.initializeSchema = initializeSchema;
        }

        public String getTablePrefix() {
            return tablePrefix;
        }

        public void setTablePrefix(String tablePrefix) {
            this.tablePrefix = tablePrefix;
        }

        public Duration getNetworkTimeout() {
            return networkTimeout;
        }

        public void setNetworkTimeout(Duration networkTimeout) {
            this.networkTimeout = networkTimeout;
        }
    }

    /** Where the leader lease lives. */
    public enum LeaseStore {
        /** The database's leader row. */
        JDBC,
        /** The application's Redis; the epochs are recorded in the database for fencing. */
        REDIS
    }

    /** Clock-jump guard. */
    public static class Clock {

        /**
         * A difference beyond this, in either direction, between how far the wall clock and the monotonic clock
         * moved (checked every second) is a clock jump: trigger decisions pause, a WARN is logged, an
         * AxClockJumpEvent is published.
         */
        private Duration jumpThreshold = Duration.ofMillis(500);

        /** How long trigger decisions wait after a clock jump; health is OUT_OF_SERVICE meanwhile. */
        private Duration pause = Duration.ofSeconds(2);

        /**
         * Whether fire times are decided on the cluster's clock: this node's clock corrected by its offset from Redis
         * TIME (with Redis) or the database's clock, measured with round-trip compensation. Applies to the system
         * clock only; a clock bean of the application's own is taken as it is.
         */
        private boolean clusterOffset = true;

        /** How often the offset from the cluster's clock is measured again. */
        private Duration offsetRefresh = Duration.ofSeconds(30);

        public Duration getJumpThreshold() {
            return jumpThreshold;
        }

        public void setJumpThreshold(Duration jumpThreshold) {
            this.jumpThreshold = jumpThreshold;
        }

        public Duration getPause() {
            return pause;
        }

        public void setPause(Duration pause) {
            this.pause = pause;
        }

        public boolean isClusterOffset() {
            return clusterOffset;
        }

        public void setClusterOffset(boolean clusterOffset) {
            this.clusterOffset = clusterOffset;
        }

        public Duration getOffsetRefresh() {
            return offsetRefresh;
        }

        public void setOffsetRefresh(Duration offsetRefresh) {
            this.offsetRefresh = offsetRefresh;
        }
    }

    /** Micrometer metrics. */
    public static class Metrics {

        /**
         * Whether per-task meters (ax.execution, ax.retries, ax.takeovers, ax.dead.letters) carry a 'task' tag; turn
         * it off when there are very many tasks, to keep the number of series bounded.
         */
        private boolean taskTag = true;

        public boolean isTaskTag() {
            return taskTag;
        }

        public void setTaskTag(boolean taskTag) {
            this.taskTag = taskTag;
        }
    }

    /** The 'ax' health component. */
    public static class Health {

        /** How long the oldest due instance may wait for a worker before the component reports the backlog status. */
        private Duration maxBacklogAge = Duration.ofMinutes(1);

        /**
         * Status of the 'ax' component while the oldest due instance has waited longer than max-backlog-age, e.g.
         * DEGRADED (not in the default status order, so the overall health stays as it is) or OUT_OF_SERVICE.
         */
        private String backlogStatus = "DEGRADED";

        /**
         * How long a probe waits for the component's check at most: past it, the probe gets the last answer (marked
         * as such), and DOWN once a check has not finished for ten times this long (a machine too starved to tell).
         */
        private Duration timeout = Duration.ofSeconds(1);

        public Duration getTimeout() {
            return timeout;
        }

        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }

        public Duration getMaxBacklogAge() {
            return maxBacklogAge;
        }

        public void setMaxBacklogAge(Duration maxBacklogAge) {
            this.maxBacklogAge = maxBacklogAge;
        }

        public String getBacklogStatus() {
            return backlogStatus;
        }

        public void setBacklogStatus(String backlogStatus) {
            this.backlogStatus = backlogStatus;
        }
    }

    /**
     * How long finished history stays in the store. The leader deletes what is older, with its audit rows and dead
     * letters, in small batches.
     */
    public static class Retention {

        /**
         * Whether finished history older than its retention is deleted (by the node that holds the cluster lease);
         * false keeps everything.
         */
        private boolean enabled = true;

        /** How long SUCCESS, SKIPPED and CANCELLED instances (with their audit trails) are kept after they finished. */
        private Duration finished = Duration.ofDays(7);

        /**
         * How long DEAD instances (with their audit trails and dead letters) are kept after they died; longer, so
         * that an operator has time to look at them and replay them.
         */
        private Duration dead = Duration.ofDays(30);

        /** How often the node that holds the cluster lease looks for expired history. */
        private Duration interval = Duration.ofMinutes(1);

        /**
         * How many instances one short transaction deletes at most; full batches follow each other, each after a
         * pause as long as it took.
         */
        private int batchSize = 500;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public Duration getFinished() {
            return finished;
        }

        public void setFinished(Duration finished) {
            this.finished = finished;
        }

        public Duration getDead() {
            return dead;
        }

        public void setDead(Duration dead) {
            this.dead = dead;
        }

        public Duration getInterval() {
            return interval;
        }

        public void setInterval(Duration interval) {
            this.interval = interval;
        }

        public int getBatchSize() {
            return batchSize;
        }

        public void setBatchSize(int batchSize) {
            this.batchSize = batchSize;
        }
    }

    /** When AX creates and upgrades its tables. */
    public enum InitializeSchema {
        /** Only on an embedded database (H2). */
        EMBEDDED,
        /** On every database. */
        ALWAYS,
        /** Never: the tables are managed outside the application. */
        NEVER
    }

    public static class Cluster {

        /** How often a node writes its heartbeat, which keeps its partitions, and renews the cluster lease it holds. */
        private Duration heartbeat = Duration.ofSeconds(3);

        /**
         * How long a heartbeat (and with it the node's partitions) and the cluster lease last without renewal, on the
         * database's clock; more than twice the heartbeat. A dead node's partitions are taken over within the lease
         * plus one heartbeat.
         */
        private Duration lease = Duration.ofSeconds(10);

        /**
         * How long an instance may stay DISPATCHED to a node that has not started it before the owner of its
         * partition takes it back; below the lease.
         */
        private Duration ackTimeout = Duration.ofSeconds(3);

        /**
         * How often a node goes over the bookkeeping of its partitions (paused tasks, instances other nodes hold,
         * workflow runs); at most the ack timeout. Work written on other nodes arrives by a wake-up, or by a sweep
         * every second.
         */
        private Duration pollInterval = Duration.ofMillis(500);

        /** Points per node on the consistent-hash ring that spreads the partitions over the live nodes. */
        private int virtualNodes = 32;

        /**
         * How many partitions the cluster's work is divided into, each owned by one node at a time (1 to 4096). Fixed
         * for the life of the database: the first node records it, and a node configured with another count does not
         * start. More partitions spread the work more evenly over many nodes.
         */
        private int partitions = 256;

        public int getPartitions() {
            return partitions;
        }

        public void setPartitions(int partitions) {
            this.partitions = partitions;
        }

        /**
         * Where the leader lease lives: jdbc (the database's leader row) or redis (a hash on the application's Redis,
         * on Redis's clock, each new epoch recorded in the database's leader row before it is used, so the leader's
         * writes stay fenced by the database). With redis, no node leads while Redis is down.
         */
        private LeaseStore leaseStore = LeaseStore.JDBC;

        public LeaseStore getLeaseStore() {
            return leaseStore;
        }

        public void setLeaseStore(LeaseStore leaseStore) {
            this.leaseStore = leaseStore;
        }

        public Duration getHeartbeat() {
            return heartbeat;
        }

        public void setHeartbeat(Duration heartbeat) {
            this.heartbeat = heartbeat;
        }

        public Duration getLease() {
            return lease;
        }

        public void setLease(Duration lease) {
            this.lease = lease;
        }

        public Duration getAckTimeout() {
            return ackTimeout;
        }

        public void setAckTimeout(Duration ackTimeout) {
            this.ackTimeout = ackTimeout;
        }

        public Duration getPollInterval() {
            return pollInterval;
        }

        public void setPollInterval(Duration pollInterval) {
            this.pollInterval = pollInterval;
        }

        public int getVirtualNodes() {
            return virtualNodes;
        }

        public void setVirtualNodes(int virtualNodes) {
            this.virtualNodes = virtualNodes;
        }
    }

    /**
     * The operator's web dashboard: HTML pages served by the application itself that read the {@code ax} Actuator
     * endpoint with the browser's session. It adds no security of its own: protect its path like the endpoint's.
     */
    public static class Dashboard {

        /** Whether the application serves the dashboard (a servlet web application with Actuator only). */
        private boolean enabled = false;

        /** Where the dashboard is served, e.g. /ax (then /ax/ is its overview page). */
        private String path = "/ax";

        /**
         * The role (as the servlet request's isUserInRole checks it) a user needs to see the dashboard's write
         * buttons: pause, resume, trigger, cancel, replay. Users without it only read.
         */
        private String writeRole = "OPERATOR";

        /**
         * The role a caller of /actuator/ax needs to read a dead letter's stack trace on its instance (in the
         * dashboard and the endpoint alike); the write role when not set. Never shown to anonymous callers.
         */
        private String stackTraceRole;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getPath() {
            return path;
        }

        public void setPath(String path) {
            this.path = path;
        }

        public String getWriteRole() {
            return writeRole;
        }

        public String getStackTraceRole() {
            return stackTraceRole;
        }

        public void setStackTraceRole(String stackTraceRole) {
            this.stackTraceRole = stackTraceRole;
        }

        /** The role that reads stack traces: its own, or the write role. */
        public String stackTraceRole() {
            return stackTraceRole == null || stackTraceRole.isBlank() ? writeRole : stackTraceRole;
        }

        public void setWriteRole(String writeRole) {
            this.writeRole = writeRole;
        }
    }
}
