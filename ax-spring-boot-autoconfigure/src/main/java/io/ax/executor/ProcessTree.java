package io.ax.executor;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Kills a process with everything it started. Descendants are found through their parents, so they are collected
 * while their parents live: the children first (in rounds, catching what is forked meanwhile), then the process,
 * then whatever the collected ones started since.
 */
final class ProcessTree {

    private static final int ROUNDS = 3;

    private ProcessTree() {}

    /** Kills the tree and waits up to {@code awaitMillis} for every member to be gone; true when all are. */
    static boolean kill(ProcessHandle root, long awaitMillis) {
        Set<ProcessHandle> seen = new LinkedHashSet<>();
        for (int round = 0; round < ROUNDS && root.isAlive(); round++) {
            List<ProcessHandle> found = root.descendants().toList();
            seen.addAll(found);
            found.forEach(ProcessHandle::destroyForcibly);
        }
        root.destroyForcibly();
        for (int round = 0; round < ROUNDS; round++) {
            List<ProcessHandle> later = new ArrayList<>();
            for (ProcessHandle h : seen) {
                h.descendants().forEach(later::add);
            }
            if (!seen.addAll(later)) {
                break;
            }
            later.forEach(ProcessHandle::destroyForcibly);
        }
        seen.add(root);
        CompletableFuture<?>[] exits = seen.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(exits).get(awaitMillis, TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            return false;
        }
    }
}
