package io.ax.docs.jobs;

import io.ax.core.AxContext;
import io.ax.core.AxExecutor;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.InvalidTaskException;
import org.springframework.stereotype.Component;

/** The jobs guide's executor of its own: runs the tasks of type NOTIFY. */
// tag::executor[]
@Component
public class NotifyExecutor implements AxExecutor {

    private final Chat chat;

    public NotifyExecutor(Chat chat) {
        this.chat = chat;
    }

    @Override
    public boolean matchTaskType(String type) {
        return "NOTIFY".equals(type);
    }

    @Override
    public void check(AxTask task) { // when the task is defined: at start-up, or register at runtime
        if (!task.params().containsKey("text")) {
            throw new InvalidTaskException(task.name(), "params.text", "a NOTIFY task needs a text");
        }
    }

    @Override
    public AxResult execute(AxTask task, AxContext context) {
        boolean posted = chat.post(task.target(), task.params().get("text"));
        return posted ? AxResult.success() : AxResult.failure("the chat refused the post"); // a failure is retried
    }
}
// end::executor[]
