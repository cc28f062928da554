package io.ax.faults.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Reading what a node logged about its store going back, from the lines of its log. */
class StoreReportsTest {

    private static final String A = "01a24e1a-e2eb-7bc7-8319-aa455607196d";
    private static final String B = "01a24e1b-38d3-7a67-bf81-0c50df78c7aa";

    @Test
    void anErrorSayingTheStoreWentBackIsReadWithTheInstancesItAndItsContinuationName() {
        List<StoreReports.Said> said = StoreReports.read(
                Path.of("n2-4.log"),
                List.of(
                        "2026-12-07T01:24:03.988Z  INFO 8350 --- [app] [main] i.a.Some : started, instance " + B,
                        "2026-12-07T01:24:05.500Z ERROR 8350 --- [app] [ax-heartbeat] io.ax.core.engine.AxEngine"
                                + " : Node n2: its store went back in time or is another server: its heartbeat is"
                                + " older. 2 instance(s) whose changes it committed lately are missing: " + A + ",",
                        "    " + B + " (of 40 checked)",
                        "2026-12-07T01:24:06.000Z  WARN 8350 --- [app] [main] i.a.Other : store went back? " + B));

        assertEquals(1, said.size(), said::toString);
        assertEquals("n2", said.get(0).node());
        assertEquals(Set.of(A, B), said.get(0).instanceIds());
        assertEquals(1_796_606_645_500_000L, said.get(0).atUs());
    }

    @Test
    void anErrorAboutSomethingElseIsNotASaying() {
        List<StoreReports.Said> said = StoreReports.read(
                Path.of("n1-1.log"),
                List.of("2026-12-07T01:24:05.500Z ERROR 8350 --- [app] [main] i.a.X : instance " + A
                        + " DEAD after 3 attempt(s)"));

        assertEquals(List.of(), said);
    }
}
