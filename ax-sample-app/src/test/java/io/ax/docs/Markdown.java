package io.ax.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One Markdown file of the user's documentation, read as GitHub renders it: its fenced code blocks, its links outside
 * code, and the anchors of its headings.
 */
record Markdown(Path file, List<String> lines) {

    /** The repository's root: Surefire runs a module's tests in the module's folder. */
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private static final Pattern FENCE = Pattern.compile("^(\\s*)```\\s*([\\w-]*)\\s*$");
    private static final Pattern MARKER = Pattern.compile("^\\s*<!--\\s*(.*?)\\s*-->\\s*$");
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern INLINE_CODE = Pattern.compile("`[^`]*`");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

    /**
     * A fenced block: its language (the fence's info string, empty for none), its text without the fence's
     * indentation, the line of its opening fence (from 1), and the HTML comment on the line before it, if any.
     */
    record Block(Markdown doc, String language, String text, int line, String marker) {

        /** Where the block starts, as {@code docs/jobs.md:42}. */
        String where() {
            return ROOT.relativize(doc.file) + ":" + line;
        }

        @Override
        public String toString() {
            return language + " block at " + where();
        }

        /** Whether the comment before it says the block is a fragment on purpose: {@code <!-- fragment: why -->}. */
        boolean fragment() {
            return marker != null && marker.startsWith("fragment");
        }
    }

    /** A link outside code: its target as written, and its line (from 1). */
    record Link(Markdown doc, String target, int line) {

        String where() {
            return ROOT.relativize(doc.file) + ":" + line;
        }
    }

    @Override
    public String toString() {
        return ROOT.relativize(file).toString();
    }

    static Markdown read(Path file) {
        try {
            return new Markdown(file, Files.readAllLines(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** README.md and every Markdown file under {@code docs/}: what users read. */
    static List<Markdown> userDocs() {
        List<Markdown> docs = new ArrayList<>();
        docs.add(read(ROOT.resolve("README.md")));
        try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(f -> docs.add(read(f)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return docs;
    }

    /** The user's docs and the other Markdown files at the root and in the modules: every file a link may be in. */
    static List<Markdown> allDocs() {
        List<Markdown> docs = new ArrayList<>(userDocs());
        try (Stream<Path> files = Files.walk(ROOT, 2)) {
            files.filter(f -> f.toString().endsWith(".md"))
                    .filter(f -> !f.startsWith(ROOT.resolve("docs")) && !f.equals(ROOT.resolve("README.md")))
                    .filter(f -> !ROOT.relativize(f).toString().contains("target"))
                    .sorted()
                    .forEach(f -> docs.add(read(f)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return docs;
    }

    /** Every fenced block, in order. */
    List<Block> blocks() {
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher open = FENCE.matcher(lines.get(i));
            if (!open.matches()) {
                continue;
            }
            int indent = open.group(1).length();
            StringBuilder text = new StringBuilder();
            int j = i + 1;
            while (j < lines.size() && !lines.get(j).trim().equals("```")) {
                String line = lines.get(j);
                text.append(
                                line.length() >= indent
                                                && line.substring(0, indent).isBlank()
                                        ? line.substring(indent)
                                        : line.strip())
                        .append('\n');
                j++;
            }
            blocks.add(
                    new Block(this, open.group(2).toLowerCase(Locale.ROOT), text.toString(), i + 1, markerBefore(i)));
            i = j;
        }
        return blocks;
    }

    /** Every link and image outside code blocks and inline code. */
    List<Link> links() {
        List<Link> links = new ArrayList<>();
        forEachProseLine((line, number) -> {
            Matcher link = LINK.matcher(INLINE_CODE.matcher(line).replaceAll(""));
            while (link.find()) {
                links.add(new Link(this, link.group(1), number));
            }
        });
        return links;
    }

    /** The anchors GitHub gives this file's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
    Set<String> anchors() {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        forEachProseLine((line, number) -> {
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                String slug = slug(heading.group(1));
                int n = seen.merge(slug, 1, Integer::sum) - 1;
                anchors.add(n == 0 ? slug : slug + "-" + n);
            }
        });
        return anchors;
    }

    /** The prose of the file: its lines outside fenced blocks, each with its number (from 1). */
    void forEachProseLine(java.util.function.ObjIntConsumer<String> action) {
        boolean inFence = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (FENCE.matcher(line).matches() || (inFence && line.trim().equals("```"))) {
                inFence = !inFence;
                continue;
            }
            if (!inFence) {
                action.accept(line, i + 1);
            }
        }
    }

    static String slug(String heading) {
        String text = heading.replaceAll("!?\\[([^\\]]*)]\\([^)]*\\)", "$1") // a link's text stays
                .toLowerCase(Locale.ROOT);
        StringBuilder slug = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.append(c);
            } else if (c == ' ') {
                slug.append('-');
            }
        }
        return slug.toString();
    }

    private String markerBefore(int fence) {
        for (int i = fence - 1; i >= 0; i--) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            Matcher marker = MARKER.matcher(lines.get(i));
            return marker.matches() ? marker.group(1) : null;
        }
        return null;
    }
}
