package io.ax.bench;

/** One side-by-side measurement: AX and its peers, in one run, printed as one table. */
public interface Scenario {

    /** Runs the scenario and returns its table. */
    ResultTable run(Options options) throws Exception;
}
