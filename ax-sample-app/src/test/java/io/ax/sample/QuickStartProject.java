package io.ax.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The throwaway Maven project of {@link QuickStartBuildTest} and the local repository that brings it this build's AX
 * artifacts, without installing them.
 */
final class QuickStartProject {

    /** This repository's root: Surefire runs a module's tests in the module's folder. */
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private QuickStartProject() {}

    /**
     * Writes the project into {@code folder}: a pom with {@code dependencies}, README's Java in an application class
     * of its own, and {@code yaml} as its {@code application.yml}. Returns the folder.
     */
    static Path write(Path folder, QuickStartReadme readme, String dependencies, String yaml) throws Exception {
        Path app = Files.createDirectories(folder);
        Files.writeString(app.resolve("pom.xml"), pom(dependencies));
        Path sources = Files.createDirectories(app.resolve("src/main/java/com/example"));
        // README's snippet goes into an application of the newcomer's: its class and what an IDE imports
        Files.writeString(sources.resolve("QuickStartApplication.java"), """
                package com.example;

                import org.springframework.boot.SpringApplication;
                import org.springframework.boot.autoconfigure.SpringBootApplication;

                @SpringBootApplication
                public class QuickStartApplication {
                    public static void main(String[] args) {
                        SpringApplication.run(QuickStartApplication.class, args);
                    }
                }
                """);
        Files.writeString(sources.resolve("QuickStartJobs.java"), """
                package com.example;

                import io.ax.core.AxContext;
                import io.ax.core.AxJob;
                import org.springframework.stereotype.Component;

                """ + readme.java());
        Path resources = Files.createDirectories(app.resolve("src/main/resources"));
        Files.writeString(resources.resolve("application.yml"), yaml);
        return app;
    }

    /** This repository's Maven wrapper. */
    static Path mavenWrapper() {
        return ROOT.resolve(System.getProperty("os.name").startsWith("Windows") ? "mvnw.cmd" : "mvnw");
    }

    /**
     * A throwaway application's pom: README's dependencies, under the Spring Boot parent of this build. README assumes
     * the application is a Spring Boot application already (its version-less lines need Boot's dependency management),
     * so the parent is the one a newcomer's application has, and so is the plugin that makes the executable jar.
     */
    private static String pom(String dependencies) throws Exception {
        Element parent = child(pomOf(ROOT.resolve("pom.xml")), "parent");
        assertThat(text(parent, "artifactId")).isEqualTo("spring-boot-starter-parent");
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <parent>
                    <groupId>%s</groupId>
                    <artifactId>%s</artifactId>
                    <version>%s</version>
                    <relativePath/>
                  </parent>
                  <groupId>com.example</groupId>
                  <artifactId>quick-start</artifactId>
                  <version>1.0</version>
                  <properties>
                    <java.version>17</java.version>
                  </properties>
                  <dependencies>
                %s  </dependencies>
                  <build>
                    <plugins>
                      <plugin>
                        <groupId>org.springframework.boot</groupId>
                        <artifactId>spring-boot-maven-plugin</artifactId>
                      </plugin>
                    </plugins>
                  </build>
                </project>
                """.formatted(
                        text(parent, "groupId"), text(parent, "artifactId"), text(parent, "version"), dependencies);
    }

    /**
     * Puts the AX artifacts README names, and those they depend on (compile and runtime, not optional), with the
     * parent pom into {@code repository}, in Maven's layout: the poms of this repository and the jars of their {@code
     * target/} folders. Returns each artifact's jar there, as the nested build finds it.
     */
    static Map<String, Path> axRepository(Path repository, QuickStartReadme readme) throws Exception {
        Element root = pomOf(ROOT.resolve("pom.xml"));
        String group = text(root, "groupId");
        String version = text(root, "version");
        put(repository, group, text(root, "artifactId"), version, ROOT.resolve("pom.xml"), null);
        Map<String, Path> modules = new HashMap<>();
        for (Element module : children(child(root, "modules"), "module")) {
            Path dir = ROOT.resolve(module.getTextContent().trim());
            modules.put(text(pomOf(dir.resolve("pom.xml")), "artifactId"), dir);
        }
        readme.axArtifacts()
                .forEach((artifact, named) -> assertThat(named)
                        .as("the version README names for " + artifact)
                        .isEqualTo(version));

        Map<String, Path> jars = new LinkedHashMap<>();
        Deque<String> todo = new ArrayDeque<>(readme.axArtifacts().keySet());
        Set<String> done = new LinkedHashSet<>();
        while (!todo.isEmpty()) {
            String artifact = todo.pop();
            if (!done.add(artifact)) {
                continue;
            }
            Path dir = modules.get(artifact);
            assertThat(dir).as("the module of " + group + ":" + artifact).isNotNull();
            Path jar = dir.resolve("target").resolve(artifact + "-" + version + ".jar");
            assertThat(jar)
                    .as("this build's jar (the test runs after 'package', as in ./mvnw verify; alone, after"
                            + " ./mvnw install -DskipTests)")
                    .exists();
            jars.put(artifact, put(repository, group, artifact, version, dir.resolve("pom.xml"), jar));
            Element pom = pomOf(dir.resolve("pom.xml"));
            assertThat(text(child(pom, "parent"), "artifactId")).isEqualTo(text(root, "artifactId"));
            Element dependencies = child(pom, "dependencies");
            for (Element d : dependencies == null ? List.<Element>of() : children(dependencies, "dependency")) {
                String scope = text(d, "scope");
                if (group.equals(text(d, "groupId"))
                        && !"true".equals(text(d, "optional"))
                        && (scope == null || scope.equals("compile") || scope.equals("runtime"))) {
                    todo.add(text(d, "artifactId"));
                }
            }
        }
        return jars;
    }

    /** Copies a pom, and a jar unless {@code null}, into the repository; returns the jar's copy. */
    private static Path put(Path repository, String group, String artifact, String version, Path pom, Path jar)
            throws IOException {
        Path dir = Files.createDirectories(
                repository.resolve(group.replace('.', '/')).resolve(artifact).resolve(version));
        Files.copy(pom, dir.resolve(artifact + "-" + version + ".pom"));
        return jar == null ? null : Files.copy(jar, dir.resolve(artifact + "-" + version + ".jar"));
    }

    /**
     * The user's local repository: the surrounding build's, as Surefire passes it ({@code localRepository}, which
     * follows {@code -Dmaven.repo.local} and settings.xml), else {@code maven.repo.local}, else Maven's default.
     */
    static Path userRepository() {
        for (String property : List.of("localRepository", "maven.repo.local")) {
            String given = System.getProperty(property);
            if (given != null && !given.isBlank()) {
                return Path.of(given).toAbsolutePath();
            }
        }
        return Path.of(System.getProperty("user.home"), ".m2", "repository");
    }

    /**
     * A view of {@code repository} in {@code view} without the folders {@code omitted} (relative to it): symbolic
     * links to everything else, so nothing is copied. Returns the view.
     */
    static Path repositoryWithout(Path view, Path repository, List<Path> omitted) throws IOException {
        Files.createDirectories(view);
        if (!Files.isDirectory(repository)) {
            return view;
        }
        try (var entries = Files.list(repository)) {
            for (Path entry : entries.toList()) {
                Path name = entry.getFileName();
                List<Path> below = new ArrayList<>();
                boolean omit = false;
                for (Path o : omitted) {
                    if (o.equals(name)) {
                        omit = true;
                    } else if (o.startsWith(name)) {
                        below.add(name.relativize(o));
                    }
                }
                if (omit) {
                    continue;
                }
                if (below.isEmpty()) {
                    Files.createSymbolicLink(view.resolve(name.toString()), entry);
                } else {
                    repositoryWithout(view.resolve(name.toString()), entry, below);
                }
            }
        }
        return view;
    }

    private static Element pomOf(Path pom) throws Exception {
        return DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(pom.toFile())
                .getDocumentElement();
    }

    private static Element child(Element parent, String name) {
        List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.get(0);
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                found.add(e);
            }
        }
        return found;
    }

    private static String text(Element parent, String name) {
        Element e = child(parent, name);
        return e == null ? null : e.getTextContent().trim();
    }
}
