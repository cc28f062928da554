package io.ax.faults.check;

import java.util.List;

/** One promise of AX, judged from a run's evidence. Implementations are stateless. */
interface Check {

    /** The check's name, as the report and each violation print it. */
    String name();

    /** What it promises, in one line, for the report. */
    String promise();

    List<Violation> check(Evidence evidence);
}
