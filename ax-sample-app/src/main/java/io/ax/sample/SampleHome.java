package io.ax.sample;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The sample's home folder, where its {@code scripts/} are and its H2 file goes ({@code data/}): {@code
 * AX_SAMPLE_HOME} when set; otherwise found from where the sample's classes are, walking up to the folder that holds
 * {@code scripts/} (the {@code ax-sample-app} module, whether it runs from {@code target/classes} or from the jar in
 * {@code target/}); otherwise the folder it was started in. So the jar runs alike from any folder, and leaves no
 * {@code data/} where it was started.
 */
final class SampleHome {

    /** A file every copy of the sample's scripts has. */
    private static final String MARK = "scripts/disk-report.sh";

    private SampleHome() {}

    static Path find() {
        String set = System.getenv("AX_SAMPLE_HOME");
        if (set != null && !set.isBlank()) {
            return Path.of(set).toAbsolutePath().normalize();
        }
        Path start = codeLocation();
        for (Path p = start; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve(MARK))) {
                return p;
            }
        }
        return Path.of("").toAbsolutePath();
    }

    /** The folder or jar the sample's classes come from, as a path; null when it cannot be told. */
    private static Path codeLocation() {
        try {
            URL location =
                    SampleHome.class.getProtectionDomain().getCodeSource().getLocation();
            String s = location.toString();
            // a Spring Boot jar: jar:nested:/path/app.jar/!BOOT-INF/classes/!/
            s = s.replaceFirst("^jar:", "").replaceFirst("^nested:", "file:");
            int inner = s.indexOf("!");
            if (inner >= 0) {
                s = s.substring(0, inner);
            }
            if (s.endsWith("/")) {
                s = s.substring(0, s.length() - 1);
            }
            return Path.of(new java.net.URI(s)).toAbsolutePath().normalize();
        } catch (URISyntaxException | RuntimeException e) {
            return null;
        }
    }
}
