package io.ax.test.engine;

import io.ax.core.AxScheduler;
import io.ax.core.Durability;
import io.ax.core.InvalidScheduleException;
import io.ax.core.ScheduleRequest;
import io.ax.core.UnknownTaskException;
import io.ax.test.engine.AxSchedulerContract.Order;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

/**
 * Random input for {@link AxScheduler}, from a seeded {@link Random} so that a failure replays: strings of any
 * kind (control characters, unpaired surrogates, emoji, a hundred thousand characters), and requests that are
 * wrong in exactly one argument, each with the exception it must be refused with and the argument its message must
 * name. The other arguments of a bad request are random but valid, so that nothing else explains the refusal.
 */
final class ScheduleFuzz {

    /**
     * A request wrong in one argument. It is built when {@link #request} is called, as {@link ScheduleRequest#of}
     * itself refuses a null or blank handler.
     */
    record Bad(
            String what, Supplier<ScheduleRequest> request, Class<? extends RuntimeException> refusal, String names) {

        @Override
        public String toString() {
            return what;
        }
    }

    private static final List<String> HANDLERS = List.of("close", "order", "bytes", "memo");
    private static final Instant YEAR_9999 = Instant.parse("9999-12-31T23:59:59.999999999Z");

    private final Random random;
    private final Instant now;
    private final int maxPayloadSize;

    ScheduleFuzz(long seed, Instant now, int maxPayloadSize) {
        this.random = new Random(seed);
        this.now = now;
        this.maxPayloadSize = maxPayloadSize;
    }

    /** One bad request; every kind of wrong argument comes up about as often as any other. */
    Bad nextBad() {
        String handler = pick(HANDLERS);
        ScheduleRequest good = good(handler);
        switch (random.nextInt(11)) {
            case 0: {
                String name = "no-such-" + string();
                return bad("unknown handler", () -> withHandler(good, name), UnknownTaskException.class, "Unknown");
            }
            case 1: {
                String name = random.nextBoolean() ? null : " \t\n".repeat(1 + random.nextInt(3));
                return bad("null or blank handler", () -> withHandler(good, name), "handler");
            }
            case 2: {
                Instant at = pick(List.of(
                        Instant.MAX,
                        YEAR_9999,
                        now.plus(AxScheduler.HORIZON).plus(Duration.ofDays(1 + random.nextInt(1000)))));
                return bad("at " + at, () -> good.at(at), "at for");
            }
            case 3: {
                Instant at = pick(List.of(
                        Instant.MIN,
                        Instant.EPOCH.minusSeconds(1L << 40),
                        now.minus(AxScheduler.HORIZON).minusSeconds(2 + random.nextInt(1000))));
                return bad("allowPast at " + at, () -> good.at(at).allowPast(), "at for");
            }
            case 4: {
                Instant at = now.minusSeconds(2 + random.nextInt(Integer.MAX_VALUE));
                return bad("past at " + at, () -> good.at(at), "at for");
            }
            case 5: {
                Duration delay = pick(List.of(
                        Duration.ofSeconds(Long.MAX_VALUE, 999_999_999),
                        Duration.ofSeconds(Long.MAX_VALUE),
                        AxScheduler.HORIZON.plusNanos(1),
                        Duration.ofDays(1L << (17 + random.nextInt(30)))));
                return bad("delay " + delay, () -> good.after(delay), "delay for");
            }
            case 6: {
                Duration delay = pick(List.of(
                        Duration.ofSeconds(Long.MIN_VALUE),
                        Duration.ofNanos(-1),
                        Duration.ofSeconds(-random.nextInt(1 << 30) - 1)));
                return bad("delay " + delay, () -> good.after(delay), "delay for");
            }
            case 7:
                return bad(
                        "no time",
                        () -> ScheduleRequest.of(handler)
                                .payload(good.payload())
                                .key(good.key()),
                        "no time");
            case 8: {
                Object payload = pick(List.of(
                        new byte[maxPayloadSize + 1 + random.nextInt(1024)],
                        "x".repeat(maxPayloadSize + 1 + random.nextInt(1024)),
                        "\u20ac".repeat(maxPayloadSize / 3 + 1), // fewer chars than the limit, more bytes
                        List.of("not an order")));
                return bad("payload " + payload.getClass().getSimpleName(), () -> good.payload(payload), "payload for");
            }
            case 9: {
                String key = pick(List.of(
                        "",
                        "k".repeat(201 + random.nextInt(100_000)),
                        "@" + printable(1 + random.nextInt(50)),
                        printable(1 + random.nextInt(20)) + (char) random.nextInt(0x20) + printable(3),
                        printable(1 + random.nextInt(20)) + (char) (0xD800 + random.nextInt(0x800)) + "x"));
                return bad("key of " + key.length() + " chars", () -> good.key(key), "key for");
            }
            default: {
                String name = string();
                return name.isBlank()
                        ? bad("blank handler", () -> withHandler(good, name), "handler")
                        : bad("any handler", () -> withHandler(good, name), UnknownTaskException.class, "Unknown");
            }
        }
    }

    /** A few valid requests with {@code bad} among them, at a random place; built inside the caller's lambda. */
    List<ScheduleRequest> batchAround(Bad bad) {
        List<ScheduleRequest> batch = new ArrayList<>();
        int size = random.nextInt(6);
        for (int i = 0; i < size; i++) {
            batch.add(good(pick(HANDLERS)));
        }
        batch.add(random.nextInt(size + 1), bad.request().get());
        return batch;
    }

    /**
     * A valid request: a time within the horizon (at least an hour ahead and a day short of it, so that it stays
     * valid while the test runs), a payload under the limit, a key or none, either durability.
     */
    ScheduleRequest good(String handler) {
        ScheduleRequest r = ScheduleRequest.of(handler);
        long seconds = (long) (random.nextDouble() * (AxScheduler.HORIZON.getSeconds() - 86_400));
        r = random.nextBoolean()
                ? r.after(Duration.ofSeconds(seconds, random.nextInt(1_000_000_000)))
                : r.at(now.plusSeconds(3600 + seconds));
        Object payload = pick(List.of(
                "",
                printable(random.nextInt(100)),
                new byte[random.nextInt(1024)],
                new Order(printable(5), random.nextInt())));
        r = r.payload(random.nextInt(4) == 0 ? null : payload);
        if (random.nextBoolean()) {
            r = r.key(validKey(1 + random.nextInt(200)));
        }
        return r.durability(pick(List.of(Durability.PERSISTENT, Durability.MEMORY)));
    }

    /** A key of at most {@code length} UTF-16 units, of letters from every plane, never starting with '@'. */
    String validKey(int length) {
        StringBuilder key = new StringBuilder("k");
        while (true) {
            int cp = switch (random.nextInt(4)) {
                case 0 -> 0x21 + random.nextInt(0x5E); // printable ASCII
                case 1 -> 0xA0 + random.nextInt(0x2000); // Latin, Greek, Cyrillic, ...
                case 2 -> 0x4E00 + random.nextInt(0x5000); // CJK
                default -> 0x1F300 + random.nextInt(0x300); // emoji: a surrogate pair
            };
            if (key.length() + Character.charCount(cp) > length) {
                return key.toString();
            }
            key.appendCodePoint(cp);
        }
    }

    /** Any string at all: empty, blank, short or huge, of any characters, lone surrogates and NUL included. */
    String string() {
        switch (random.nextInt(6)) {
            case 0:
                return pick(
                        List.of("", " ", "null", "' OR 1=1 --", "../../etc/passwd", "%00", "\u0000", "close\u0000"));
            case 1:
                return printable(random.nextInt(40));
            case 2:
                return validKey(1 + random.nextInt(60));
            case 3:
                return printable(10_000 + random.nextInt(100_000));
            default: {
                StringBuilder s = new StringBuilder();
                int length = random.nextInt(64);
                for (int i = 0; i < length; i++) {
                    s.append((char) random.nextInt(Character.MAX_VALUE + 1));
                }
                return s.toString();
            }
        }
    }

    private String printable(int length) {
        StringBuilder s = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            s.append((char) (0x20 + random.nextInt(0x5F)));
        }
        return s.toString();
    }

    private <T> T pick(List<T> choices) {
        return choices.get(random.nextInt(choices.size()));
    }

    private static ScheduleRequest withHandler(ScheduleRequest r, String handler) {
        return new ScheduleRequest(handler, r.at(), r.delay(), r.payload(), r.key(), r.durability(), r.pastAllowed());
    }

    private static Bad bad(String what, Supplier<ScheduleRequest> request, String names) {
        return bad(what, request, InvalidScheduleException.class, names);
    }

    private static Bad bad(
            String what, Supplier<ScheduleRequest> request, Class<? extends RuntimeException> refusal, String names) {
        return new Bad(what, request, refusal, names);
    }
}
