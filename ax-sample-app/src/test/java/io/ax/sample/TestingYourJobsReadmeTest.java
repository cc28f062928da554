package io.ax.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * README "Testing your jobs" shows SampleJobsTest: every test it shows is one of that class, by name, and what the
 * README calls on the tester and its assertions is what the class calls, so that the README cannot drift from code
 * that runs.
 */
class TestingYourJobsReadmeTest {

    private static final Pattern TEST_METHOD = Pattern.compile("void (\\w+)\\(\\)");
    private static final Pattern CALL = Pattern.compile("\\b(ax\\.\\w+|\\.(?:succeeded|died|hasAttempts|"
            + "lastErrorContains|stackTraceContains|failedWith|wentThrough)\\b)");

    @Test
    void theReadmesTestsAreTheSamplesTests() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        int start = readme.indexOf("## Testing your jobs");
        assertThat(start).as("README has its section 'Testing your jobs'").isNotNegative();
        String section = readme.substring(start, readme.indexOf("\n## ", start + 1));
        int from = section.indexOf("class SampleJobsTest");
        String snippet = section.substring(from, section.indexOf("```", from));
        String sample = Files.readString(Path.of("src/test/java/io/ax/sample/SampleJobsTest.java"));

        List<String> shown = all(TEST_METHOD, snippet);
        assertThat(shown).as("the tests README shows").hasSizeGreaterThanOrEqualTo(4);
        assertThat(all(TEST_METHOD, sample)).as("SampleJobsTest's tests").containsAll(shown);
        assertThat(all(CALL, sample)).as("what SampleJobsTest calls").containsAll(all(CALL, snippet));
    }

    private static List<String> all(Pattern pattern, String text) {
        List<String> found = new ArrayList<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }
}
