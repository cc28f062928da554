package io.ax.core.cluster;

import io.ax.core.TaskInstance;
import java.util.Objects;

/**
 * The partition a row belongs to: a pure function of the row, the same in every process of every version, since the
 * stores keep its value ({@code partition_id}) and every node must agree on it forever.
 *
 * <p>An instance's partition is that of its <i>partition key</i>, chosen by its {@link io.ax.core.InstanceOrigin}
 * so that the work one owner must see together lands together:
 *
 * <table>
 *   <caption>The partition key of each origin</caption>
 *   <tr><th>origin</th><th>partition key</th><th>why</th></tr>
 *   <tr><td>{@code SERIES}, {@code CATCH_UP}</td><td>the task name</td>
 *       <td>the owner of the task plans its fires and holds its one slot when it does not overlap</td></tr>
 *   <tr><td>{@code ON_DEMAND}</td><td>the task name</td><td>it shares the task's slot with the series</td></tr>
 *   <tr><td>{@code WORKFLOW}</td><td>the run id ({@link TaskInstance#runId()}, from the key {@code @run:<id>} or
 *       {@code @blocked:<id>}); the instance id when the key names no run</td>
 *       <td>one owner moves a whole run on</td></tr>
 *   <tr><td>{@code DELAYED}</td><td>the caller's key; the instance id when it has none</td>
 *       <td>spread over the cluster, one key in one place</td></tr>
 * </table>
 *
 * <p>A workflow run's root instance is a trigger's fire or an on-demand run: it is in its task's partition, and its
 * id is the run id its steps are in. A replay keeps the instance, so its partition.
 *
 * <p><b>Key to partition.</b> {@code floorMod(hash(key), count)}, where {@code hash} is the hash of {@link HashRing}:
 * 64-bit FNV-1a over the key's UTF-8 bytes, finished with MurmurHash3's {@code fmix64}, read as a signed long.
 * Nothing depends on {@link String#hashCode}, the JVM or the platform. Changing any of it would move rows that the
 * stores hold under the old value: it must never change.
 *
 * <p>Stateless and thread-safe.
 */
public final class Partitions {

    private Partitions() {}

    /**
     * The partition of a key.
     *
     * @param key a partition key, such as a task name
     * @param count the cluster's partition count, 1 to {@link PartitionLeases#MAX_PARTITIONS}
     * @return 0 to {@code count - 1}
     * @throws IllegalArgumentException when {@code count} is out of range
     * @throws NullPointerException when {@code key} is null
     */
    public static int of(String key, int count) {
        Objects.requireNonNull(key, "key");
        requireCount(count);
        return (int) Math.floorMod(HashRing.hash(key), (long) count);
    }

    /**
     * The partition of an instance: that of its partition key (see the table above).
     *
     * @param count the cluster's partition count, 1 to {@link PartitionLeases#MAX_PARTITIONS}
     * @return 0 to {@code count - 1}
     * @throws IllegalArgumentException when {@code count} is out of range
     * @throws NullPointerException when {@code instance} is null
     */
    public static int of(TaskInstance instance, int count) {
        return of(key(instance), count);
    }

    /**
     * The partition key of an instance. A switch without a default: an origin added later does not compile here
     * until it is given its rule.
     *
     * @throws NullPointerException when {@code instance} is null
     */
    public static String key(TaskInstance instance) {
        Objects.requireNonNull(instance, "instance");
        return switch (instance.origin()) {
            case SERIES, CATCH_UP, ON_DEMAND -> instance.taskName();
            case WORKFLOW -> instance.runId() != null ? instance.runId() : instance.id();
            case DELAYED -> instance.key() != null ? instance.key() : instance.id();
        };
    }

    /**
     * Checks a partition count.
     *
     * @return the count
     * @throws IllegalArgumentException when it is not between 1 and {@link PartitionLeases#MAX_PARTITIONS}
     */
    public static int requireCount(int count) {
        if (count < 1 || count > PartitionLeases.MAX_PARTITIONS) {
            throw new IllegalArgumentException(
                    "a partition count must be between 1 and " + PartitionLeases.MAX_PARTITIONS + ", was " + count);
        }
        return count;
    }
}
