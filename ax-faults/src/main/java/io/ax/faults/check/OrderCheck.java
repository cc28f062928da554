package io.ax.faults.check;

import java.util.ArrayList;
import java.util.List;

/**
 * Every order of the sample shop whose payment window ended by the mark is PAID or CLOSED: none stays OPEN, whether
 * its close instance never ran or was never written.
 */
final class OrderCheck implements Check {

    @Override
    public String name() {
        return "order";
    }

    @Override
    public String promise() {
        return "no order stays OPEN past its payment window";
    }

    @Override
    public List<Violation> check(Evidence e) {
        History h = e.history();
        List<Violation> out = new ArrayList<>();
        for (History.Order o : h.orders()) {
            if (!"OPEN".equals(o.state()) || o.closesAtUs() > e.judgement().markUs()) {
                continue;
            }
            String close;
            if (o.closeInstance() == null) {
                close = "it has no close instance (the order was written, its close never was)";
            } else if (!h.instances().containsKey(o.closeInstance())) {
                close = "its close instance " + o.closeInstance() + " does not exist";
            } else {
                History.Instance in = h.instances().get(o.closeInstance());
                close = "its close instance is " + in.state() + " after "
                        + h.runs(in.id()).size() + " run(s)";
            }
            out.add(new Violation(
                    name(),
                    o.closeInstance(),
                    "order " + o.id() + " is OPEN past its window (it closed at " + Times.of(o.closesAtUs()) + "): "
                            + close,
                    o.closesAtUs()));
        }
        return out;
    }
}
