package io.ax.faults.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Where this machine's libfaketime is (Debian's {@code libfaketime} package), if anywhere. */
public final class FakeTime {

    private static final List<Path> KNOWN = List.of(
            Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"),
            Path.of("/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1"),
            Path.of("/usr/lib/faketime/libfaketime.so.1"));

    private FakeTime() {}

    /** The library, or null when it is not installed. */
    public static Path library() {
        for (Path p : KNOWN) {
            if (Files.isReadable(p)) {
                return p;
            }
        }
        try {
            Process dpkg = new ProcessBuilder("dpkg", "-L", "libfaketime")
                    .redirectErrorStream(true)
                    .start();
            String listing = new String(dpkg.getInputStream().readAllBytes());
            dpkg.waitFor(10, TimeUnit.SECONDS);
            return listing.lines()
                    .filter(l -> l.endsWith("faketime/libfaketime.so.1"))
                    .map(Path::of)
                    .filter(Files::isReadable)
                    .findFirst()
                    .orElse(null);
        } catch (IOException e) {
            return null; // no dpkg: not a Debian machine, and none of the known paths
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
