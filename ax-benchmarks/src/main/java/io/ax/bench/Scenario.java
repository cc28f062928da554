package io.ax.bench;

/** One side-by-side measurement: AX and its peers, in one run, printed as one table. */
public interface Scenario {

    /** Runs the scenario and returns its table. */
    ResultTable run(Options options) throws Exception;

    /**
     * Thrown when a scenario cannot run where it was pointed (a missing option, a server without what it needs):
     * {@link Bench} prints the message, which says what to do, as one line and exits with status 2.
     */
    final class Refused extends RuntimeException {

        public Refused(String message) {
            super(message);
        }
    }
}
