package io.ax.autoconfigure.adopt.quartz;

import io.ax.core.AxException;
import io.ax.core.AxTask;
import io.ax.core.store.TaskDataStore;
import io.ax.core.store.TaskDataStore.TaskData;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.time.Instant;
import java.util.Optional;
import org.quartz.Calendar;
import org.quartz.JobDetail;
import org.quartz.spi.OperableTrigger;

/**
 * The Quartz objects of the tasks imported from a Quartz job store (its job detail, trigger and calendar), kept in
 * AX's task data, so that every node of the cluster, after any restart, makes the same job for a run as the node that
 * imported it. The task's definition itself is AX's runtime definition; this holds only what a Quartz job sees and AX
 * cannot express (the data map's objects, the trigger and calendar a job is handed). Thread-safe.
 *
 * <p>The objects are kept as Java serialization writes them, as Quartz's own job store keeps job data maps and
 * calendars: a data map read from such a store holds whatever the application's jobs put in it, and a node reads them
 * back with the application's classes, as Quartz does. Quartz's tables may be dropped once the import is done.
 */
final class ImportedJobs {

    /** The prefix of the task data keys, followed by the task's name. */
    static final String KEY_PREFIX = "quartz-import:";

    /** Who writes a definition, in place of an attempt. */
    private static final String WRITER = "quartz-import";

    /** The first byte of every value: its format, so that a later one can tell old values apart. */
    private static final int FORMAT = 1;

    /** What a run of an imported task is made of. */
    record Definition(JobDetail job, OperableTrigger trigger, Calendar calendar) {}

    /** The store's task data; null when the store keeps none (then nothing can be imported). */
    private final TaskDataStore store;

    ImportedJobs(TaskDataStore store) {
        this.store = store;
    }

    boolean available() {
        return store != null;
    }

    /**
     * Why a task's definition cannot be kept, or null when it can: its key too long, an object that cannot be
     * serialized, a value too large.
     */
    static String refusal(String taskName, JobDetail job, OperableTrigger trigger, Calendar calendar) {
        if (key(taskName).length() > TaskDataStore.MAX_KEY_LENGTH) {
            return "its definition is kept under '" + KEY_PREFIX + "' and the task's name, at most "
                    + TaskDataStore.MAX_KEY_LENGTH + " characters; the trigger's key is too long";
        }
        try {
            int size = encode(new Definition(job, trigger, calendar)).length;
            if (size > TaskDataStore.MAX_VALUE_SIZE) {
                return "its job, trigger and calendar take " + size + " bytes, and AX keeps at most "
                        + TaskDataStore.MAX_VALUE_SIZE;
            }
            return null;
        } catch (IOException e) {
            return "its job, trigger or calendar cannot be kept (Java serialization failed: " + e + ")";
        }
    }

    /**
     * Keeps the definition of an imported task, replacing the one an earlier import kept under its name.
     *
     * @throws AxException when another node wrote it meanwhile, or it cannot be kept
     */
    void keep(AdoptedJob imported, Instant now) {
        String key = key(imported.task().name());
        byte[] value;
        try {
            value = encode(new Definition(imported.job(), imported.trigger(), imported.calendar()));
        } catch (IOException e) {
            throw new AxException("The job of " + imported.origin() + " cannot be kept: " + e, e);
        }
        long version = store().read(key).map(TaskData::version).orElse(0L);
        if (!store().write(key, version, value, new TaskDataStore.Writer(WRITER, 0, now))) {
            throw new AxException("The job of " + imported.origin() + " was written by another import meanwhile;"
                    + " nothing was imported, run the import again");
        }
    }

    /**
     * The job an imported task runs, as kept at its import.
     *
     * @return empty when no import kept one for the task
     * @throws AxException when it was kept and cannot be read here (a class missing from the class path, say)
     */
    Optional<AdoptedJob> find(AxTask task) {
        if (store == null) {
            return Optional.empty();
        }
        Optional<TaskData> stored = store.read(key(task.name()));
        if (stored.isEmpty()) {
            return Optional.empty();
        }
        Definition d;
        try {
            d = decode(stored.get().value());
        } catch (ClassNotFoundException e) {
            throw new AxException("The Quartz job of imported task '" + task.name() + "' needs class " + e.getMessage()
                    + ", which is not on this node's class path");
        } catch (IOException | ClassCastException e) {
            throw new AxException("The Quartz job of imported task '" + task.name() + "' cannot be read: " + e, e);
        }
        String origin = origin(d.job(), d.trigger());
        return Optional.of(new AdoptedJob(
                task, origin, d.job(), d.trigger(), d.calendar(), QuartzTaskMapping.dataKey(d.job(), origin)));
    }

    /** What an imported task was adopted from, for people; the same on every node. */
    static String origin(JobDetail job, OperableTrigger trigger) {
        return "Quartz trigger " + trigger.getKey() + " of job " + job.getKey() + " (imported)";
    }

    private static String key(String taskName) {
        return KEY_PREFIX + taskName;
    }

    private TaskDataStore store() {
        if (store == null) {
            throw new AxException("AX's store keeps no task data, where the jobs imported from Quartz are kept");
        }
        return store;
    }

    private static byte[] encode(Definition d) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.write(FORMAT);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(d.job());
            out.writeObject(d.trigger());
            out.writeObject(d.calendar());
        }
        return bytes.toByteArray();
    }

    private static Definition decode(byte[] value) throws IOException, ClassNotFoundException {
        ByteArrayInputStream bytes = new ByteArrayInputStream(value);
        int format = bytes.read();
        if (format != FORMAT) {
            throw new IOException("format " + format + " is not " + FORMAT + " (written by another version of AX?)");
        }
        try (ObjectInputStream in = new ApplicationObjectInput(bytes)) {
            return new Definition(
                    (JobDetail) in.readObject(), (OperableTrigger) in.readObject(), (Calendar) in.readObject());
        }
    }

    /**
     * Reads classes with the thread's context class loader, the application's (jobs' classes and those of their data
     * may not be visible to the loader of AX's own classes).
     */
    private static final class ApplicationObjectInput extends ObjectInputStream {

        ApplicationObjectInput(InputStream in) throws IOException {
            super(in);
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            if (loader != null) {
                try {
                    return Class.forName(desc.getName(), false, loader);
                } catch (ClassNotFoundException e) {
                    // not the application's: a JDK or library class, as the default resolves it
                }
            }
            return super.resolveClass(desc);
        }
    }
}
