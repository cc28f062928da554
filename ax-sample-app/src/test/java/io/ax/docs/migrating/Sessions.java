package io.ax.docs.migrating;

/** The migration guide's session store, whose expired sessions a recurring task purges. */
public interface Sessions {

    /** Deletes the sessions that have expired. */
    void purgeExpired();
}
