package io.ax.core.engine.work;

import io.ax.core.AxTask;
import io.ax.core.InvalidTaskException;
import io.ax.core.engine.ExecutorRouter;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Parameters given to one run on demand ({@link io.ax.core.engine.AxEngine#triggerNow(String, Map)}): checked against the task, kept
 * as the instance's payload (in the properties format), and laid over the task's own parameters when it runs.
 * Stateless.
 */
public final class RunParams {

    private RunParams() {}

    /**
     * The task with {@code given} laid over its parameters, checked: only parameters the task declares may be given
     * (its own values are the defaults), and the task's executor must accept the result.
     *
     * @throws InvalidTaskException naming the first parameter the task does not declare, or what the executor refuses
     */
    public static AxTask apply(AxTask task, Map<String, String> given, ExecutorRouter router) {
        for (Map.Entry<String, String> e : new TreeMap<>(given).entrySet()) {
            if (!task.params().containsKey(e.getKey())) {
                throw new InvalidTaskException(
                        task.name(),
                        "params." + e.getKey(),
                        "the task has no parameter '" + e.getKey() + "'; a run may set only those it declares: "
                                + new TreeMap<>(task.params()).keySet());
            }
            if (e.getValue() == null) {
                throw new InvalidTaskException(task.name(), "params." + e.getKey(), "a value must be given");
            }
        }
        AxTask merged = with(task, given);
        router.check(merged);
        return merged;
    }

    static AxTask with(AxTask task, Map<String, String> given) {
        if (given.isEmpty()) {
            return task;
        }
        Map<String, String> params = new LinkedHashMap<>(task.params());
        params.putAll(given);
        return new AxTask(
                task.name(),
                task.type(),
                task.target(),
                params,
                task.trigger(),
                task.retry(),
                task.timeout(),
                task.concurrent(),
                task.group(),
                task.durability(),
                task.misfire(),
                task.priority(),
                task.transactional(),
                task.limits());
    }

    public static byte[] encode(Map<String, String> params) {
        Properties p = new Properties();
        p.putAll(params);
        StringWriter out = new StringWriter();
        try {
            p.store(out, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    static Map<String, String> decode(byte[] bytes) {
        Properties p = new Properties();
        try {
            p.load(new StringReader(new String(bytes, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> params = new TreeMap<>();
        p.forEach((k, v) -> params.put((String) k, (String) v));
        return params;
    }
}
