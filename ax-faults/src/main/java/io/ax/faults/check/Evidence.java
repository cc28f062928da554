package io.ax.faults.check;

/**
 * What every check reads: the history, the bounds it is judged by, and what is derived from the history once for
 * all checks (the acknowledged starts with their runs, the faults' windows).
 */
record Evidence(History history, Judgement judgement, Segments segments, FaultWindows windows) {

    static Evidence of(History history) {
        Judgement judgement = Judgement.of(history);
        return new Evidence(history, judgement, new Segments(history), new FaultWindows(history, judgement));
    }
}
