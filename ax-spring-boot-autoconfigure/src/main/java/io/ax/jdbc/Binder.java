package io.ax.jdbc;

import io.ax.core.AuditEntry;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.cluster.Partitions;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The bound arguments of the store's statements, in the order of their {@code ?} marks in {@link Sql}, and the SQL
 * types of those whose values may be null: a null binds on every driver only with its type declared.
 */
final class Binder {

    /** The longest reason an audit row keeps. */
    private static final int REASON_LIMIT = 2_000;
    /** The longest trigger description a task row keeps. */
    private static final int DESCRIPTION_LIMIT = 500;

    /**
     * The SQL types of {@link #instanceArgs}, so that null keys, trace parents, payloads and partitions bind on every
     * driver.
     */
    static final int[] INSERT_TYPES = {
        Types.VARCHAR,
        Types.VARCHAR,
        Types.BIGINT,
        Types.VARCHAR,
        Types.INTEGER,
        Types.VARCHAR,
        Types.BIGINT,
        Types.VARCHAR,
        Types.VARCHAR,
        Types.VARCHAR,
        Types.INTEGER,
        Types.VARBINARY,
        Types.INTEGER
    };

    /** {@link #INSERT_TYPES} and the epoch a fenced insert is conditional on. */
    static final int[] INSERT_TYPES_FENCED = fencedTypes();

    /** {@link #INSERT_TYPES}, then the partition and its epoch of {@link Sql#insertInstanceInPartition}. */
    static final int[] INSERT_TYPES_IN_PARTITION = withTypes(INSERT_TYPES, Types.INTEGER, Types.BIGINT);

    /** {@link #INSERT_TYPES_IN_PARTITION} and the leader's epoch of {@link Sql#insertInstanceInPartitionFenced}. */
    static final int[] INSERT_TYPES_IN_PARTITION_FENCED = withTypes(INSERT_TYPES_IN_PARTITION, Types.BIGINT);

    /** The SQL types of {@link #updateArgs}: the due time is often null in every row of a batch. */
    static final int[] UPDATE_TYPES = {
        Types.VARCHAR,
        Types.INTEGER,
        Types.VARCHAR,
        Types.BIGINT, // state, attempt, node, updated
        Types.INTEGER,
        Types.VARCHAR,
        Types.BIGINT,
        Types.BIGINT, // clear owner, owner, epoch (twice)
        Types.VARCHAR,
        Types.VARCHAR,
        Types.BIGINT, // id, from state, due time
        Types.VARCHAR,
        Types.VARCHAR,
        Types.INTEGER, // expected owner (twice), attempt
        Types.BIGINT,
        Types.BIGINT // fence (twice)
    };

    /** The SQL types of {@link #updateArgsInPartition}. */
    static final int[] UPDATE_TYPES_IN_PARTITION = inPartitionTypes();

    private Binder() {}

    /**
     * For {@link Sql#insertInstance}: the instance's columns, then its payload (or null), then its partition among
     * {@code partitions} (null while the count is unknown: 0).
     */
    static Object[] instanceArgs(TaskInstance i, byte[] payload, int partitions) {
        return new Object[] {
            i.id(),
            i.taskName(),
            Micros.of(i.scheduledTime()),
            i.state().name(),
            i.attempt(),
            i.node(),
            Micros.of(i.updatedAt()),
            i.origin().name(),
            i.key(),
            i.traceParent(),
            i.priority(),
            payload,
            partition(i, partitions)
        };
    }

    /** The partition an instance is written with: null while the store does not know the count (0). */
    static Integer partition(TaskInstance i, int partitions) {
        return partitions == 0 ? null : Partitions.of(i, partitions);
    }

    /** For {@link Sql#insertInstanceFenced} when {@code fence > 0}: the arguments, then the epoch; else as they are. */
    static Object[] fenced(Object[] args, long fence) {
        if (fence == 0) {
            return args;
        }
        Object[] withFence = Arrays.copyOf(args, args.length + 1);
        withFence[args.length] = fence;
        return withFence;
    }

    /**
     * For {@link Sql#insertInstanceInPartition} ({@code fence} 0) or {@link Sql#insertInstanceInPartitionFenced}: the
     * arguments of {@link #instanceArgs}, then the row's partition (the last of them, null while the count is unknown:
     * then the fence fails) and the epoch it must be at, then the leader's epoch when {@code fence > 0}.
     */
    static Object[] inPartition(Object[] args, long partitionEpoch, long fence) {
        Object[] with = Arrays.copyOf(args, args.length + (fence > 0 ? 3 : 2));
        with[args.length] = args[args.length - 1];
        with[args.length + 1] = partitionEpoch;
        if (fence > 0) {
            with[args.length + 2] = fence;
        }
        return with;
    }

    /**
     * For {@link Sql#updateStateInPartition}: {@link #updateArgs} with the partition's epoch (0: none) twice after the
     * leader's epoch of the new value, and twice at the end for the fence.
     */
    static Object[] updateArgsInPartition(Transition t) {
        Object[] args = updateArgs(t);
        Object[] with = new Object[args.length + 4];
        System.arraycopy(args, 0, with, 0, 8);
        with[8] = t.partitionEpoch();
        with[9] = t.partitionEpoch();
        System.arraycopy(args, 8, with, 10, args.length - 8);
        with[with.length - 2] = t.partitionEpoch();
        with[with.length - 1] = t.partitionEpoch();
        return with;
    }

    /** For {@link Sql#updateState}. */
    static Object[] updateArgs(Transition t) {
        return new Object[] {
            t.to().name(),
            t.attempt(),
            t.node(),
            Micros.of(t.at()),
            t.to() == InstanceState.SCHEDULED ? 1 : 0,
            t.owner(),
            t.fence(),
            t.fence(),
            t.instanceId(),
            t.from().name(),
            t.dueAt() == null ? null : Micros.of(t.dueAt()),
            t.expectedOwner(),
            t.expectedOwner(),
            t.attempt(),
            t.fence(),
            t.fence()
        };
    }

    /** The audit row a transition leaves. */
    static AuditEntry auditEntry(Transition t) {
        return new AuditEntry(t.instanceId(), t.from(), t.to(), t.node(), t.attempt(), t.at(), t.reason());
    }

    /** For {@link Sql#insertAudit}. */
    static Object[] auditArgs(AuditEntry e) {
        return new Object[] {
            e.instanceId(),
            e.from() == null ? null : e.from().name(),
            e.to().name(),
            e.node(),
            e.attempt(),
            Micros.of(e.at()),
            clip(e.reason())
        };
    }

    /** For {@link Sql#updateTaskNextFire}. */
    static Object[] nextFireArgs(GroupWriter.NextFire f) {
        return new Object[] {Micros.of(f.next()), Micros.of(f.at()), f.taskName()};
    }

    /** For {@link Sql#findOwned}: the owner (twice; null for any), the states, the limit. */
    static Object[] ownedArgs(String owner, Set<InstanceState> states, int limit) {
        Object[] args = new Object[states.size() + 3];
        args[0] = owner;
        args[1] = owner;
        int i = 2;
        for (InstanceState s : states) {
            args[i++] = s.name();
        }
        args[i] = limit;
        return args;
    }

    /**
     * For {@link Sql#findOwned(int, int, int)}: the owner (twice; null for any), the states, the partitions, the holders
     * left out, the limit.
     */
    static Object[] ownedArgs(
            String owner, Set<InstanceState> states, int[] partitions, List<String> leftOut, int limit) {
        List<Object> args = new ArrayList<>(states.size() + partitions.length + leftOut.size() + 3);
        args.add(owner);
        args.add(owner);
        for (InstanceState s : states) {
            args.add(s.name());
        }
        for (int p : partitions) {
            args.add(p);
        }
        args.addAll(leftOut);
        args.add(limit);
        return args.toArray();
    }

    /** The SQL types of {@link #ownedArgs(String, Set, int[], List, int)}. */
    static int[] ownedTypes(int states, int partitions, int leftOut) {
        int[] types = new int[states + partitions + leftOut + 3];
        Arrays.fill(types, Types.VARCHAR);
        Arrays.fill(types, states + 2, states + 2 + partitions, Types.INTEGER);
        types[types.length - 1] = Types.INTEGER;
        return types;
    }

    /**
     * For {@link Sql#findScheduled(int, boolean)}: the partitions, then the bound, then (after a cursor) its time
     * twice and its id, then the limit.
     */
    static Object[] dueArgs(int[] partitions, long before, Long afterTime, String afterId, int limit) {
        List<Object> args = new ArrayList<>(partitions.length + 5);
        for (int p : partitions) {
            args.add(p);
        }
        args.add(before);
        if (afterTime != null) {
            args.add(afterTime);
            args.add(afterTime);
            args.add(afterId == null ? "" : afterId);
        }
        args.add(limit);
        return args.toArray();
    }

    /** The SQL types of {@link #ownedArgs}: the owner may be null. */
    static int[] ownedTypes(int states) {
        int[] types = new int[states + 3];
        Arrays.fill(types, Types.VARCHAR);
        types[types.length - 1] = Types.INTEGER;
        return types;
    }

    /** For {@link Sql#findByStates}: the states, the limit. */
    static Object[] stateArgs(Set<InstanceState> states, int limit) {
        Object[] args = new Object[states.size() + 1];
        int i = 0;
        for (InstanceState s : states) {
            args[i++] = s.name();
        }
        args[i] = limit;
        return args;
    }

    /** For a statement that compares times first, then lists ids. */
    static Object[] withTimes(List<String> ids, long... times) {
        Object[] args = new Object[times.length + ids.size()];
        for (int i = 0; i < times.length; i++) {
            args[i] = times[i];
        }
        for (int i = 0; i < ids.size(); i++) {
            args[times.length + i] = ids.get(i);
        }
        return args;
    }

    /** A reason as the audit table keeps it: its first 2,000 characters. */
    static String clip(String reason) {
        return reason.length() > REASON_LIMIT ? reason.substring(0, REASON_LIMIT) : reason;
    }

    /** A trigger as the task table describes it: its first 500 characters. */
    static String description(String trigger) {
        return trigger.length() > DESCRIPTION_LIMIT ? trigger.substring(0, DESCRIPTION_LIMIT) : trigger;
    }

    private static int[] inPartitionTypes() {
        int[] t = new int[UPDATE_TYPES.length + 4];
        System.arraycopy(UPDATE_TYPES, 0, t, 0, 8);
        t[8] = Types.BIGINT;
        t[9] = Types.BIGINT;
        System.arraycopy(UPDATE_TYPES, 8, t, 10, UPDATE_TYPES.length - 8);
        t[t.length - 2] = Types.BIGINT;
        t[t.length - 1] = Types.BIGINT;
        return t;
    }

    private static int[] withTypes(int[] types, int... more) {
        int[] t = Arrays.copyOf(types, types.length + more.length);
        System.arraycopy(more, 0, t, types.length, more.length);
        return t;
    }

    private static int[] fencedTypes() {
        int[] t = Arrays.copyOf(INSERT_TYPES, INSERT_TYPES.length + 1);
        t[INSERT_TYPES.length] = Types.BIGINT;
        return t;
    }
}
