package io.ax.executor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Resolves a task's target to a script inside the script directory, or says why it may not run: a path that
 * escapes the directory (absolute, or with {@code ..}), a symbolic link (anywhere on the way) that leads out of it,
 * a missing file, a directory, a file that is not executable. Immutable.
 */
final class ShellScripts {

    private final Path dir;
    private final Path realDir;

    /** @throws IllegalArgumentException when the directory does not exist */
    ShellScripts(Path dir) {
        this.dir = dir.toAbsolutePath().normalize();
        try {
            this.realDir = this.dir.toRealPath();
        } catch (IOException e) {
            throw new IllegalArgumentException("ax.shell.script-dir '" + dir + "' does not exist");
        }
        if (!Files.isDirectory(realDir)) {
            throw new IllegalArgumentException("ax.shell.script-dir '" + dir + "' is not a directory");
        }
    }

    Path dir() {
        return realDir;
    }

    /**
     * The real path of the script {@code target} names.
     *
     * @throws IllegalArgumentException with the reason it may not run
     */
    Path resolve(String target) {
        Path relative;
        try {
            relative = Path.of(target.trim());
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException("'" + target + "' is not a path");
        }
        if (target.isBlank() || relative.isAbsolute()) {
            throw new IllegalArgumentException(
                    "'" + target + "' must be a path relative to ax.shell.script-dir '" + dir + "'");
        }
        Path inside = dir.resolve(relative).normalize();
        if (!inside.startsWith(dir) || inside.equals(dir)) {
            throw new IllegalArgumentException("'" + target + "' escapes ax.shell.script-dir '" + dir + "'");
        }
        if (!Files.exists(inside, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalArgumentException("script '" + target + "' does not exist in '" + dir + "'");
        }
        Path real;
        try {
            real = inside.toRealPath();
        } catch (IOException e) {
            throw new IllegalArgumentException("script '" + target + "' is a broken symbolic link");
        }
        if (!real.startsWith(realDir)) {
            throw new IllegalArgumentException(
                    "script '" + target + "' is a symbolic link out of ax.shell.script-dir '" + dir + "'");
        }
        if (!Files.isRegularFile(real)) {
            throw new IllegalArgumentException("script '" + target + "' is not a regular file");
        }
        if (!Files.isExecutable(real)) {
            throw new IllegalArgumentException("script '" + target + "' is not executable (chmod +x it)");
        }
        return real;
    }
}
