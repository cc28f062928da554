package io.ax.autoconfigure.adopt;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Which registered tasks were adopted, and from what: the endpoint, the console and the metrics mark them. */
public final class AdoptedTasks {

    private final Map<String, String> origins = new ConcurrentHashMap<>();

    /** Notes that the task {@code name} was adopted from {@code origin}. */
    public void add(String name, String origin) {
        origins.put(name, origin);
    }

    /** Forgets the task {@code name}: it is no longer adopted (an import that failed took it back). */
    public void remove(String name) {
        origins.remove(name);
    }

    /** What the task {@code name} was adopted from, or empty when it was defined for AX. */
    public Optional<String> origin(String name) {
        return Optional.ofNullable(origins.get(name));
    }

    /** The adopted tasks by name, with their origins (a copy). */
    public Map<String, String> all() {
        return Map.copyOf(origins);
    }
}
