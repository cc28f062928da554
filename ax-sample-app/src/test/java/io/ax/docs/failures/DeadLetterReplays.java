package io.ax.docs.failures;

import io.ax.core.DeadLetter;
import io.ax.core.engine.AxEngine;
import io.ax.core.store.InstanceStore;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;

/** The failures guide: replaying dead letters from the application's own code. */
@Component
class DeadLetterReplays {

    private final AxEngine engine;

    DeadLetterReplays(AxEngine engine) {
        this.engine = engine;
    }

    // tag::replay-all[]
    /** Replays every dead letter of {@code task}; returns their instance ids. */
    List<String> replayAll(String task) {
        InstanceStore store = engine.store();
        List<String> ids = new ArrayList<>();
        long total = store.deadLetterCount();
        for (int offset = 0; offset < total; offset += 200) {
            for (DeadLetter letter : store.deadLetters(offset, 200)) {
                if (letter.taskName().equals(task)) {
                    ids.add(letter.instanceId());
                }
            }
        }
        ids.forEach(engine::replay); // after the reading: each replay removes its letter from the list
        return ids;
    }
    // end::replay-all[]
}
