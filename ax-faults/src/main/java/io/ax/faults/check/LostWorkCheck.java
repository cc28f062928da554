package io.ax.faults.check;

import java.util.ArrayList;
import java.util.List;

/**
 * Work a failover lost: a delayed task or an order that the old primary had and the promoted one does not, and whose
 * id a node answered the traffic's client with ({@code faults_acked}): PERSISTENT work gone that a client was told
 * was accepted. A row whose commit the old primary made while its client got an error (the answer cut off by the
 * failover) was never accepted: not judged. After a failover to a caught-up standby a row can still be missing, of a transaction whose commit the
 * old primary made but never acknowledged (it was stopped while the commit waited for the standby): not judged here.
 */
final class LostWorkCheck implements Check {

    @Override
    public String name() {
        return "lost";
    }

    @Override
    public String promise() {
        return "no delayed task or order the store acknowledged is missing after a failover";
    }

    @Override
    public List<Violation> check(Evidence e) {
        History h = e.history();
        List<Violation> out = new ArrayList<>();
        for (History.Failover f : h.failovers().failovers()) {
            if (f.caughtUp()) {
                continue;
            }
            for (History.LostRow r : h.failovers().lost()) {
                if (r.failoverId() != f.id()) {
                    continue;
                }
                boolean delayed = r.what().equals("instance") && r.detail().endsWith("(DELAYED)");
                if ((delayed || r.what().equals("order")) && h.failovers().acknowledged(r)) {
                    out.add(new Violation(
                            name(),
                            r.instanceId(),
                            (delayed ? "delayed task " + r.detail() : r.detail()) + ", written "
                                    + Times.of(r.atUs()) + " on the old primary, is missing on the one promoted in "
                                    + f.kind() + " #" + f.id(),
                            r.atUs()));
                }
            }
        }
        return out;
    }
}
