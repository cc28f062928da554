package io.ax.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The docs hold together as a reader follows them: every relative link and anchor resolves, the landing page stays
 * short, and the text written for users carries no engineering history (commit hashes, issue numbers).
 */
class DocsLinksTest {

    /** A commit hash: 7 to 40 hex digits with a digit and a letter, not a part of a UUID or a longer word. */
    private static final Pattern COMMIT =
            Pattern.compile("(?<![\\w-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\\d)[0-9a-f]{7,40}(?![\\w-])");

    private static final Pattern ISSUE = Pattern.compile("(?i)\\bissues? #?\\d+|(?<![\\w&])#\\d+\\b");

    @Test
    void everyRelativeLinkAndAnchorResolves() {
        Map<Path, Set<String>> anchors = new HashMap<>();
        List<String> broken = new ArrayList<>();
        for (Markdown doc : Markdown.allDocs()) {
            for (Markdown.Link link : doc.links()) {
                String target = link.target();
                if (target.matches("^[a-z][a-z0-9+.-]*:.*")) {
                    continue; // http:, https:, mailto:
                }
                int hash = target.indexOf('#');
                String path = hash < 0 ? target : target.substring(0, hash);
                String anchor = hash < 0 ? null : target.substring(hash + 1);
                Path file = path.isEmpty()
                        ? doc.file()
                        : doc.file().getParent().resolve(path).normalize();
                if (!Files.exists(file)) {
                    broken.add(link.where() + ": " + target + " (no such file)");
                } else if (anchor != null && file.toString().endsWith(".md")) {
                    Set<String> known =
                            anchors.computeIfAbsent(file, f -> Markdown.read(f).anchors());
                    if (!known.contains(anchor)) {
                        broken.add(link.where() + ": " + target + " (no such heading)");
                    }
                }
            }
        }
        assertThat(broken).as("links that lead nowhere").isEmpty();
    }

    @Test
    void theUsersDocsCarryNoCommitHashesOrIssueNumbers() {
        List<String> found = new ArrayList<>();
        for (Markdown doc : Markdown.userDocs()) {
            doc.forEachProseLine((line, number) -> {
                for (Pattern history : List.of(COMMIT, ISSUE)) {
                    Matcher m = history.matcher(line);
                    while (m.find()) {
                        found.add(Markdown.ROOT.relativize(doc.file()) + ":" + number + ": " + m.group());
                    }
                }
            });
        }
        assertThat(found).as("engineering history in text written for users").isEmpty();
    }

    @Test
    void theReadmeIsALandingPageAndTheBenchmarksAreCurrentOnly() throws IOException {
        Path readme = Markdown.ROOT.resolve("README.md");
        assertThat(Files.readAllLines(readme).size()).as("README's lines").isLessThanOrEqualTo(350);
        assertThat(Files.size(readme)).as("README's bytes").isLessThanOrEqualTo(30 * 1024);
        assertThat(Files.size(Markdown.ROOT.resolve("BENCHMARKS.md")))
                .as("BENCHMARKS.md's bytes")
                .isLessThanOrEqualTo(40 * 1024);
    }

    @Test
    void anchorsAreGitHubs() {
        assertThat(Markdown.slug("Effects committed exactly once: `transactional = true`"))
                .isEqualTo("effects-committed-exactly-once-transactional--true");
        assertThat(Markdown.slug("Limits across the cluster: `cluster-limit`, `maxConcurrent`, `mutex`"))
                .isEqualTo("limits-across-the-cluster-cluster-limit-maxconcurrent-mutex");
        assertThat(Markdown.slug("The `ax` endpoint")).isEqualTo("the-ax-endpoint");
    }
}
