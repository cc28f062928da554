package io.ax.bench.wakeup;

import java.util.Locale;

/** How the owner of a partition hears of work another node wrote in it. */
enum Kind {
    /** The store's own: PostgreSQL {@code LISTEN/NOTIFY} (the engine's default on PostgreSQL). */
    NOTIFY("notify", "LISTEN/NOTIFY"),
    /** Redis pub/sub, with the store's own behind it while Redis does not answer, as the auto-configuration wires it. */
    REDIS("redis", "Redis"),
    /** None: the owner finds the work by its own rounds. */
    POLL("poll", "poll only");

    /** The name {@code --kinds} takes. */
    final String option;
    /** How a column names it. */
    final String label;

    Kind(String option, String label) {
        this.option = option;
        this.label = label;
    }

    static Kind of(String option) {
        String name = option.strip().toLowerCase(Locale.ROOT);
        for (Kind k : values()) {
            if (k.option.equals(name)) {
                return k;
            }
        }
        throw new IllegalArgumentException("--kinds takes notify, redis and poll, was '" + option + "'");
    }
}
