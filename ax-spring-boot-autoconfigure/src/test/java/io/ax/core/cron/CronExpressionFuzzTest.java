package io.ax.core.cron;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Throws random, garbage and mutated strings at {@link CronExpression#parse(String)}: the only
 * exception allowed out is {@link CronParseException}, and whatever parses can be evaluated.
 */
class CronExpressionFuzzTest {

    private static final long SEED = 0xC0FFEEL;
    private static final int INPUTS = 60_000;

    private static final String[] VALID = {
        "0 0 12 * * ?",
        "0 15 10 ? * MON-FRI",
        "0 0/5 14,18 * * ?",
        "0 0-30/10 22-2 L-3W JAN,nov-feb ? 2020-2030",
        "*/7 5/9 */3 ? 2/3 6#3",
        "0 0 0 ? * 5L",
        "0 0 0 15W,L * ?",
        "59 59 23 31 12 ? 2099",
    };
    private static final String ALPHABET = "0123456789 *?,-/#LWlw\tJANFEBMONSUNXYZ\u00e9\u0663\u2003\n";
    private static final ZonedDateTime START =
            ZonedDateTime.of(2024, 3, 10, 1, 59, 59, 0, ZoneId.of("America/New_York"));

    private final Random random = new Random(SEED);

    @Test
    void onlyCronParseExceptionEscapesParseAndParsedExpressionsCanBeEvaluated() {
        int parsed = 0;
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < INPUTS; i++) {
            String input = switch (i % 3) {
                case 0 -> randomString();
                case 1 -> mutate(VALID[random.nextInt(VALID.length)]);
                default -> randomFields();
            };
            try {
                CronExpression cron = CronExpression.parse(input);
                cron.next(START);
                parsed++;
            } catch (CronParseException expected) {
                assertThat(expected.getMessage()).startsWith("Invalid cron expression ");
                assertThat(expected.position()).isBetween(-1, input.length());
            } catch (RuntimeException e) {
                if (failures.size() < 20) {
                    failures.add("'" + input + "': " + e);
                }
            }
        }
        System.out.printf("Fuzzed %d inputs, %d parsed%n", INPUTS, parsed);
        assertThat(failures).isEmpty();
        assertThat(parsed).isPositive();
    }

    private String randomString() {
        int length = random.nextInt(40);
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(
                    random.nextInt(10) == 0
                            ? (char) random.nextInt(0x3000)
                            : ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return text.toString();
    }

    private String mutate(String valid) {
        StringBuilder text = new StringBuilder(valid);
        int edits = 1 + random.nextInt(4);
        for (int i = 0; i < edits && !text.isEmpty(); i++) {
            int at = random.nextInt(text.length());
            char c = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
            switch (random.nextInt(3)) {
                case 0 -> text.deleteCharAt(at);
                case 1 -> text.insert(at, c);
                default -> text.setCharAt(at, c);
            }
        }
        return text.toString();
    }

    /** Six or seven fields built from plausible pieces, so that many inputs get deep into parsing. */
    private String randomFields() {
        String[] pieces = {
            "*",
            "?",
            "L",
            "W",
            "LW",
            "L-",
            "#",
            "/",
            "-",
            ",",
            "0",
            "1",
            "7",
            "12",
            "31",
            "32",
            "59",
            "60",
            "99",
            "2099",
            "2100",
            "999999999999",
            "MON",
            "FRI",
            "JAN",
            "DEC",
            "FOO",
            "5L",
            "6#3",
            "6#",
            "L-30",
            "15W"
        };
        int fields = 5 + random.nextInt(4);
        List<String> parts = new ArrayList<>();
        for (int f = 0; f < fields; f++) {
            StringBuilder field = new StringBuilder();
            int count = 1 + random.nextInt(3);
            for (int p = 0; p < count; p++) {
                field.append(pieces[random.nextInt(pieces.length)]);
            }
            parts.add(field.toString());
        }
        return String.join(" ", parts);
    }
}
