package io.ax.test.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.AuditEntry;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.store.NewFire;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What delayed tasks need of a store: payloads, keys, paging through due instances, moving a due time, and
 * transitions that lose once the due time moved. Part of {@link InstanceStoreContract}.
 */
abstract class DelayedTaskContract extends StoreContractSupport {

    // ---- payloads -----------------------------------------------------------------------------------------

    @Test
    void payloadsAreReadBackByteForByte() {
        byte[] everyByte = new byte[256];
        for (int b = 0; b < everyByte.length; b++) {
            everyByte[b] = (byte) b;
        }
        byte[] big = new byte[64 * 1024];
        new Random(5).nextBytes(big);
        TaskInstance small = delayed("mail", T0, null);
        TaskInstance large = delayed("mail", T0, null);
        store.schedule(List.of(new NewFire(small, "", everyByte), new NewFire(large, "", big)));
        assertThat(store.payload(small.id()))
                .hasValueSatisfying(p -> assertThat(p).isEqualTo(everyByte));
        assertThat(store.payload(large.id()))
                .hasValueSatisfying(p -> assertThat(p).isEqualTo(big));
    }

    @Test
    void aBatchOfLargePayloadsIsWrittenWhole() {
        // 15 MiB in one call: more than a store may want to send in one statement
        List<NewFire> fires = new ArrayList<>();
        for (int n = 0; n < 5; n++) {
            byte[] payload = new byte[3 * 1024 * 1024];
            Arrays.fill(payload, (byte) n);
            payload[payload.length - 1] = (byte) (100 + n);
            fires.add(new NewFire(delayed("export", T0, "part-" + n), "", payload));
        }
        fires.add(new NewFire(delayed("export", T0, "part-0"), "", new byte[] {1}));
        assertThat(store.schedule(fires)).containsExactly(true, true, true, true, true, false);
        for (NewFire fire : fires.subList(0, 5)) {
            assertThat(store.payload(fire.instance().id()))
                    .hasValueSatisfying(p -> assertThat(p).isEqualTo(fire.payload()));
        }
    }

    @Test
    void anEmptyPayloadIsKeptApartFromNone() {
        TaskInstance empty = delayed("mail", T0, null);
        TaskInstance none = delayed("mail", T0, null);
        store.schedule(List.of(new NewFire(empty, "", new byte[0]), new NewFire(none, "", null)));
        assertThat(store.payload(empty.id()))
                .hasValueSatisfying(p -> assertThat(p).isEmpty());
        assertThat(store.payload(none.id())).isEmpty();
        assertThat(store.payload("unknown")).isEmpty();
    }

    @Test
    void aPayloadChangedByTheCallerAfterSchedulingStaysAsScheduled() {
        byte[] payload = {1, 2, 3};
        TaskInstance i = delayed("mail", T0, null);
        store.schedule(List.of(new NewFire(i, "", payload)));
        payload[0] = 9;
        store.payload(i.id()).orElseThrow()[1] = 9;
        assertThat(store.payload(i.id())).hasValueSatisfying(p -> assertThat(p).containsExactly(1, 2, 3));
    }

    // ---- origin and key -----------------------------------------------------------------------------------

    @Test
    void originAndKeyAreKeptWhereverAnInstanceIsRead() {
        Instant at = T0.plusSeconds(5);
        TaskInstance series = scheduled("report", at);
        TaskInstance catchUp = of("c-id", "report", T0, InstanceOrigin.CATCH_UP, TaskInstance.fireKey(T0));
        TaskInstance now = onDemand("report", at);
        TaskInstance later = delayed("report", at, "order-1:close");
        store.schedule(List.of(
                new NewFire(series, ""), new NewFire(catchUp, ""), new NewFire(now, ""), new NewFire(later, "")));
        TaskInstance created = created("report", T0.plusSeconds(9));
        store.create(created, "");
        for (TaskInstance i : List.of(series, catchUp, now, later, created)) {
            assertThat(store.find(i.id())).contains(i);
        }
        assertThat(store.findByTask("report", 10)).containsExactlyInAnyOrder(series, catchUp, now, later, created);
        assertThat(store.findByStates(Set.of(InstanceState.SCHEDULED), 10))
                .containsExactlyInAnyOrder(series, catchUp, now, later);
        assertThat(store.findScheduled(T0.plusSeconds(60), null, null, 10))
                .containsExactlyInAnyOrder(series, catchUp, now, later);
        assertThat(store.findByKey("report", "order-1:close")).contains(later);
        assertThat(store.findByKey("report", TaskInstance.fireKey(at))).contains(series);
        assertThat(store.findByKey("report", "order-2:close")).isEmpty();
        assertThat(store.findByKey("other", "order-1:close")).isEmpty();
    }

    @Test
    void aTraceParentIsKeptWhereverAnInstanceIsReadAndThroughItsChanges() {
        String parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        TaskInstance traced = traced(delayed("mail", T0.plusSeconds(5), "order-1:mail"), parent);
        TaskInstance longest =
                traced(delayed("mail", T0.plusSeconds(6), null), "0".repeat(TaskInstance.MAX_TRACE_PARENT_LENGTH));
        TaskInstance plain = delayed("mail", T0.plusSeconds(7), null);
        assertThat(store.schedule(List.of(new NewFire(traced, ""), new NewFire(longest, ""), new NewFire(plain, ""))))
                .containsExactly(true, true, true);

        assertThat(store.find(traced.id())).contains(traced);
        assertThat(store.find(longest.id())).contains(longest);
        assertThat(store.find(plain.id()).orElseThrow().traceParent()).isNull();
        assertThat(store.findByKey("mail", "order-1:mail")).contains(traced);
        assertThat(store.findScheduled(T0.plusSeconds(60), null, null, 10)).containsExactly(traced, longest, plain);

        Instant later = T0.plusSeconds(30);
        assertThat(store.reschedule(traced.id(), traced.scheduledTime(), later, "n2", T0))
                .isTrue();
        assertThat(store.transition(move(traced.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED)
                        .assignedTo("n2", 0)))
                .isTrue();
        assertThat(store.findOwned(Set.of(InstanceState.DISPATCHED), "n2", 10))
                .singleElement()
                .satisfies(o -> assertThat(o.instance().traceParent()).isEqualTo(parent));
        assertThat(store.findAll(List.of(traced.id())))
                .singleElement()
                .satisfies(o -> assertThat(o.instance().traceParent()).isEqualTo(parent));
        assertThat(store.findByTask("mail", 10))
                .extracting(TaskInstance::traceParent)
                .containsExactlyInAnyOrder(parent, longest.traceParent(), null);
    }

    @Test
    void aPriorityIsKeptWhereverAnInstanceIsReadAndThroughItsChanges() {
        TaskInstance urgent = prioritized(delayed("mail", T0.plusSeconds(5), "order-1:mail"), 1000);
        TaskInstance low = prioritized(delayed("mail", T0.plusSeconds(6), null), -1000);
        TaskInstance plain = delayed("mail", T0.plusSeconds(7), null);
        assertThat(store.schedule(List.of(new NewFire(urgent, ""), new NewFire(low, ""), new NewFire(plain, ""))))
                .containsExactly(true, true, true);

        assertThat(store.find(urgent.id())).contains(urgent);
        assertThat(store.find(low.id())).contains(low);
        assertThat(store.find(plain.id()).orElseThrow().priority()).isNull();
        assertThat(store.findByKey("mail", "order-1:mail")).contains(urgent);
        assertThat(store.findScheduled(T0.plusSeconds(60), null, null, 10)).containsExactly(urgent, low, plain);

        assertThat(store.transition(move(urgent.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED)
                        .assignedTo("n2", 0)))
                .isTrue();
        assertThat(store.findOwned(Set.of(InstanceState.DISPATCHED), "n2", 10))
                .singleElement()
                .satisfies(o -> assertThat(o.instance().priority()).isEqualTo(1000));
        assertThat(store.findAll(List.of(low.id())))
                .singleElement()
                .satisfies(o -> assertThat(o.instance().priority()).isEqualTo(-1000));
        assertThat(store.findByTask("mail", 10))
                .extracting(TaskInstance::priority)
                .containsExactlyInAnyOrder(1000, -1000, null);
    }

    @Test
    void aKeyOfTheLongestLengthIsKept() {
        String key = "ü".repeat(10) + "k".repeat(TaskInstance.MAX_KEY_LENGTH - 10);
        TaskInstance i = delayed("mail", T0, key);
        assertThat(store.schedule(List.of(new NewFire(i, "")))).containsExactly(true);
        assertThat(store.findByKey("mail", key)).contains(i);
    }

    @Test
    void aKeyIsScheduledOnlyOnce() {
        TaskInstance first = delayed("close", T0.plusSeconds(1800), "order-1:close");
        assertThat(store.schedule(List.of(new NewFire(first, "first", new byte[] {1}))))
                .containsExactly(true);
        TaskInstance again = delayed("close", T0.plusSeconds(3600), "order-1:close");
        assertThat(store.schedule(List.of(new NewFire(again, "again", new byte[] {2}))))
                .containsExactly(false);
        assertThat(store.find(again.id())).isEmpty();
        assertThat(store.auditTrail(again.id())).isEmpty();
        assertThat(store.findByKey("close", "order-1:close")).contains(first);
        assertThat(store.payload(first.id()))
                .hasValueSatisfying(p -> assertThat(p).containsExactly(1));
    }

    @Test
    void theSameKeyTwiceInOneBatchWritesTheFirstOnly() {
        TaskInstance first = delayed("close", T0.plusSeconds(2), "order-1:close");
        TaskInstance other = delayed("close", T0.plusSeconds(3), "order-2:close");
        TaskInstance again = delayed("close", T0.plusSeconds(1), "order-1:close");
        boolean[] written =
                store.schedule(List.of(new NewFire(first, ""), new NewFire(other, ""), new NewFire(again, "")));
        assertThat(written).containsExactly(true, true, false);
        assertThat(store.findByKey("close", "order-1:close")).contains(first);
        assertThat(store.find(again.id())).isEmpty();
        assertThat(store.auditTrail(again.id())).isEmpty();
    }

    @Test
    void keysAreUniqueWithinTheirTaskOnly() {
        TaskInstance a = delayed("close", T0, "order-1");
        TaskInstance b = delayed("remind", T0, "order-1");
        assertThat(store.schedule(List.of(new NewFire(a, ""), new NewFire(b, ""))))
                .containsExactly(true, true);
        assertThat(store.findByKey("close", "order-1")).contains(a);
        assertThat(store.findByKey("remind", "order-1")).contains(b);
    }

    @Test
    void instancesWithoutKeyNeverConflict() {
        List<NewFire> batch = List.of(
                new NewFire(onDemand("report", T0), ""),
                new NewFire(onDemand("report", T0), ""),
                new NewFire(delayed("report", T0, null), ""));
        assertThat(store.schedule(batch)).containsExactly(true, true, true);
        assertThat(store.schedule(List.of(new NewFire(onDemand("report", T0), ""))))
                .containsExactly(true);
        TaskInstance created = new TaskInstance(
                "created-id", "report", T0, InstanceState.CREATED, 0, "n1", T0, InstanceOrigin.ON_DEMAND, null);
        store.create(created, "");
        assertThat(store.findByStates(Set.of(InstanceState.SCHEDULED, InstanceState.CREATED), 10))
                .hasSize(5);
    }

    @Test
    void aTriggersFireAndACallersKeyNeverMeet() {
        TaskInstance fire = scheduled("report", T0);
        TaskInstance keyed = delayed("report", T0, "order-1");
        TaskInstance unkeyed = delayed("report", T0, null);
        assertThat(store.schedule(List.of(new NewFire(fire, ""), new NewFire(keyed, ""), new NewFire(unkeyed, ""))))
                .containsExactly(true, true, true);
        // a second decision for the same fire time still loses
        assertThat(store.schedule(List.of(new NewFire(scheduled("report", T0), ""))))
                .containsExactly(false);
        assertThat(store.findByKey("report", TaskInstance.fireKey(T0))).contains(fire);
    }

    @Test
    void onlyWrittenSeriesFiresMoveTheTasksNextFireTime() {
        store.saveTask("report", "every minute", T0);
        TaskInstance first = scheduled("report", T0.plusSeconds(60));
        store.schedule(List.of(
                new NewFire(first, ""),
                new NewFire(scheduled("report", T0.plusSeconds(120)), ""),
                new NewFire(delayed("report", T0.plusSeconds(300), null), "")));
        assertThat(store.findTask("report").orElseThrow().nextFireTime()).isEqualTo(T0.plusSeconds(120));
        assertThat(store.schedule(List.of(new NewFire(scheduled("report", T0.plusSeconds(60)), ""))))
                .containsExactly(false);
        assertThat(store.findTask("report").orElseThrow().nextFireTime()).isEqualTo(T0.plusSeconds(120));
    }

    @Test
    void ofTwoRacingSchedulersWithTheSameKeyExactlyOneWrites() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 50; round++) {
                String key = "order-" + round;
                CountDownLatch start = new CountDownLatch(1);
                List<Callable<Boolean>> writers = new ArrayList<>();
                for (int w = 0; w < 2; w++) {
                    TaskInstance i = delayed("close", T0.plusSeconds(w), key);
                    writers.add(() -> {
                        start.await();
                        return store.schedule(List.of(new NewFire(i, "")))[0];
                    });
                }
                List<Future<Boolean>> results = new ArrayList<>();
                for (Callable<Boolean> w : writers) {
                    results.add(pool.submit(w));
                }
                start.countDown();
                int wins = 0;
                for (Future<Boolean> r : results) {
                    wins += r.get(10, TimeUnit.SECONDS) ? 1 : 0;
                }
                assertThat(wins).as("round " + round).isEqualTo(1);
                assertThat(store.findByKey("close", key)).isPresent();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    // ---- due instances ------------------------------------------------------------------------------------

    @Test
    void dueInstancesComeInTimeThenIdOrder() {
        Instant t1 = T0.plusSeconds(1);
        Instant t2 = T0.plusSeconds(2);
        List<TaskInstance> written = List.of(
                of("id-5", "x", t2, InstanceOrigin.DELAYED, null),
                of("id-3", "y", t1, InstanceOrigin.DELAYED, null),
                of("id-4", "x", t1, InstanceOrigin.DELAYED, null),
                of("id-1", "z", t2, InstanceOrigin.DELAYED, null),
                of("id-2", "x", T0, InstanceOrigin.DELAYED, null));
        store.schedule(written.stream().map(i -> new NewFire(i, "")).toList());
        assertThat(store.findScheduled(T0.plusSeconds(60), null, null, 10))
                .extracting(TaskInstance::id)
                .containsExactly("id-2", "id-3", "id-4", "id-1", "id-5");
        assertThat(store.findScheduled(T0.plusSeconds(60), null, null, 2))
                .extracting(TaskInstance::id)
                .containsExactly("id-2", "id-3");
    }

    @Test
    void dueInstancesArePagedAfterTheCursorAlsoAmongEqualTimes() {
        List<NewFire> fires = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (int n = 0; n < 10; n++) {
            // seven share T0, three share T0 + 1 s: pages end in the middle of a group of equal times
            Instant at = n < 7 ? T0 : T0.plusSeconds(1);
            String id = "id-" + (char) ('a' + n);
            fires.add(new NewFire(of(id, "t" + (n % 3), at, InstanceOrigin.DELAYED, null), ""));
            expected.add(id);
        }
        Collections.reverse(fires);
        store.schedule(fires);
        List<String> seen = new ArrayList<>();
        Instant afterTime = null;
        String afterId = null;
        for (int page = 0; page < 10; page++) {
            List<TaskInstance> got = store.findScheduled(T0.plusSeconds(60), afterTime, afterId, 3);
            assertThat(got).hasSizeLessThanOrEqualTo(3);
            if (got.isEmpty()) {
                break;
            }
            got.forEach(i -> seen.add(i.id()));
            TaskInstance last = got.get(got.size() - 1);
            afterTime = last.scheduledTime();
            afterId = last.id();
        }
        assertThat(seen).containsExactlyElementsOf(expected);
    }

    @Test
    void dueInstancesAreThoseStrictlyBeforeTheBound() {
        Instant bound = T0.plusSeconds(10);
        TaskInstance justBefore = delayed("x", bound.minus(1, ChronoUnit.MICROS), null);
        TaskInstance atBound = delayed("x", bound, null);
        store.schedule(List.of(new NewFire(justBefore, ""), new NewFire(atBound, "")));
        assertThat(store.findScheduled(bound, null, null, 10)).containsExactly(justBefore);
        // a bound between two microseconds: the instance at the earlier one is before it
        assertThat(store.findScheduled(bound.plusNanos(500), null, null, 10)).containsExactly(justBefore, atBound);
        assertThat(store.findScheduled(justBefore.scheduledTime(), null, null, 10))
                .isEmpty();
    }

    @Test
    void onlyScheduledInstancesAreDue() {
        TaskInstance waiting = delayed("x", T0.plusSeconds(3), null);
        TaskInstance dispatched = delayed("x", T0.plusSeconds(1), null);
        TaskInstance cancelled = delayed("x", T0.plusSeconds(2), null);
        TaskInstance backAgain = delayed("x", T0.plusSeconds(4), null);
        store.schedule(List.of(waiting, dispatched, cancelled, backAgain).stream()
                .map(i -> new NewFire(i, ""))
                .toList());
        store.create(created("x", T0), "");
        store.transition(move(dispatched.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED));
        store.transition(move(cancelled.id(), InstanceState.SCHEDULED, InstanceState.CANCELLED));
        store.transition(move(backAgain.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED));
        store.transition(move(backAgain.id(), InstanceState.DISPATCHED, InstanceState.SCHEDULED));
        assertThat(store.findScheduled(T0.plusSeconds(60), null, null, 10))
                .extracting(TaskInstance::id)
                .containsExactly(waiting.id(), backAgain.id());
    }

    // ---- reschedule ---------------------------------------------------------------------------------------

    @Test
    void rescheduleMovesTheDueTimeAndAuditsIt() {
        Instant from = T0.plusSeconds(60);
        Instant to = T0.plusSeconds(600);
        Instant at = T0.plusSeconds(5);
        TaskInstance i = delayed("close", from, "order-1:close");
        TaskInstance other = delayed("close", T0.plusSeconds(120), null);
        store.schedule(List.of(new NewFire(i, "", new byte[] {7}), new NewFire(other, "")));
        // it was dispatched once and came back: the audit row carries the attempt it has
        store.transition(move(i.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED));
        store.transition(move(i.id(), InstanceState.DISPATCHED, InstanceState.SCHEDULED));

        assertThat(store.reschedule(i.id(), from, to, "n2", at)).isTrue();

        TaskInstance moved = store.find(i.id()).orElseThrow();
        assertThat(moved)
                .isEqualTo(new TaskInstance(
                        i.id(),
                        "close",
                        to,
                        InstanceState.SCHEDULED,
                        1,
                        "n2",
                        at,
                        InstanceOrigin.DELAYED,
                        "order-1:close"));
        assertThat(store.findByKey("close", "order-1:close")).contains(moved);
        assertThat(store.payload(i.id())).hasValueSatisfying(p -> assertThat(p).containsExactly(7));
        assertThat(store.auditTrail(i.id()))
                .last()
                .isEqualTo(new AuditEntry(
                        i.id(),
                        InstanceState.SCHEDULED,
                        InstanceState.SCHEDULED,
                        "n2",
                        1,
                        at,
                        "rescheduled from " + from + " to " + to));
        assertThat(store.findScheduled(T0.plusSeconds(300), null, null, 10)).containsExactly(other);
        assertThat(store.findScheduled(T0.plusSeconds(900), null, null, 10)).containsExactly(other, moved);
    }

    @Test
    void rescheduleLosesOnceTheInstanceLeftScheduled() {
        TaskInstance i = delayed("close", T0.plusSeconds(60), null);
        store.schedule(List.of(new NewFire(i, "")));
        store.transition(move(i.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED));
        assertThat(store.reschedule(i.id(), T0.plusSeconds(60), T0.plusSeconds(600), "n2", T0))
                .isFalse();
        assertThat(store.find(i.id()).orElseThrow().scheduledTime()).isEqualTo(T0.plusSeconds(60));
        assertThat(store.auditTrail(i.id())).hasSize(3);
        assertThat(store.reschedule("unknown", T0, T0.plusSeconds(1), "n2", T0)).isFalse();
    }

    @Test
    void rescheduleLosesWhenItsFromTimeIsStale() {
        TaskInstance i = delayed("close", T0.plusSeconds(60), null);
        store.schedule(List.of(new NewFire(i, "")));
        assertThat(store.reschedule(i.id(), T0.plusSeconds(60), T0.plusSeconds(120), "n1", T0))
                .isTrue();
        assertThat(store.reschedule(i.id(), T0.plusSeconds(60), T0.plusSeconds(600), "n2", T0))
                .isFalse();
        assertThat(store.find(i.id()).orElseThrow().scheduledTime()).isEqualTo(T0.plusSeconds(120));
        assertThat(store.auditTrail(i.id())).hasSize(3);
    }

    // ---- transitions conditional on the due time ----------------------------------------------------------

    @Test
    void aTransitionDueAtATimeAppliesOnlyWhileTheInstanceIsDueThen() {
        Instant first = T0.plusSeconds(60);
        Instant second = T0.plusSeconds(120);
        TaskInstance i = delayed("close", first, null);
        store.schedule(List.of(new NewFire(i, "")));
        store.reschedule(i.id(), first, second, "n1", T0);
        assertThat(store.transition(moveIfDue(i.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED, first)))
                .isFalse();
        assertThat(state(i.id())).isEqualTo(InstanceState.SCHEDULED);
        assertThat(store.auditTrail(i.id())).hasSize(3);
        assertThat(store.transition(moveIfDue(i.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED, second)))
                .isTrue();
        assertThat(state(i.id())).isEqualTo(InstanceState.DISPATCHED);
    }

    @Test
    void batchTransitionsHonourDueTimesAlongsideUnconditionalOnes() {
        TaskInstance moved = delayed("a", T0, null);
        TaskInstance b = delayed("b", T0.plusSeconds(1), null);
        TaskInstance c = delayed("c", T0.plusSeconds(2), null);
        TaskInstance d = delayed("d", T0.plusSeconds(3), null);
        store.schedule(
                List.of(moved, b, c, d).stream().map(i -> new NewFire(i, "")).toList());
        store.reschedule(moved.id(), T0, T0.plusSeconds(10), "n1", T0);
        Instant dueB = b.scheduledTime();
        Instant dueD = d.scheduledTime();
        boolean[] applied = store.transitionAll(List.of(
                moveIfDue(moved.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED, T0),
                moveIfDue(b.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED, dueB),
                // follows on from the change before, but the instance is not due at that time
                moveIfDue(b.id(), InstanceState.DISPATCHED, InstanceState.RUNNING, T0.plusSeconds(5)),
                move(b.id(), InstanceState.DISPATCHED, InstanceState.RUNNING),
                move(c.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED),
                moveIfDue(d.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED, dueD),
                moveIfDue(d.id(), InstanceState.DISPATCHED, InstanceState.RUNNING, dueD),
                moveIfDue(moved.id(), InstanceState.SCHEDULED, InstanceState.CANCELLED, T0.plusSeconds(10))));
        assertThat(applied).containsExactly(false, true, false, true, true, true, true, true);
        assertThat(state(moved.id())).isEqualTo(InstanceState.CANCELLED);
        assertThat(state(b.id())).isEqualTo(InstanceState.RUNNING);
        assertThat(state(c.id())).isEqualTo(InstanceState.DISPATCHED);
        assertThat(state(d.id())).isEqualTo(InstanceState.RUNNING);
        assertThat(trail(b.id()))
                .containsExactly(
                        InstanceState.CREATED,
                        InstanceState.SCHEDULED,
                        InstanceState.DISPATCHED,
                        InstanceState.RUNNING);
    }

    @Test
    void aBatchTransitionWhoseInstanceWasRescheduledLosesAndTheRestFollowItsRealState() {
        TaskInstance i = delayed("a", T0, null);
        store.schedule(List.of(new NewFire(i, "")));
        store.reschedule(i.id(), T0, T0.plusSeconds(10), "n1", T0);
        boolean[] applied = store.transitionAll(List.of(
                moveIfDue(i.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED, T0),
                move(i.id(), InstanceState.DISPATCHED, InstanceState.RUNNING),
                move(i.id(), InstanceState.SCHEDULED, InstanceState.CANCELLED)));
        assertThat(applied).containsExactly(false, false, true);
        assertThat(state(i.id())).isEqualTo(InstanceState.CANCELLED);
    }

    private static TaskInstance traced(TaskInstance i, String traceParent) {
        return copy(i, traceParent, i.priority());
    }

    private static TaskInstance prioritized(TaskInstance i, int priority) {
        return copy(i, i.traceParent(), priority);
    }

    /** The instance with another trace parent and priority. */
    private static TaskInstance copy(TaskInstance i, String traceParent, Integer priority) {
        return new TaskInstance(
                i.id(),
                i.taskName(),
                i.scheduledTime(),
                i.state(),
                i.attempt(),
                i.node(),
                i.updatedAt(),
                i.origin(),
                i.key(),
                traceParent,
                priority);
    }
}
