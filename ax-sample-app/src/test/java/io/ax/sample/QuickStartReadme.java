package io.ax.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fenced snippets of README's "Quick start", in their order, sorted by what they are for:
 * the dependencies every application adds (the starter, Actuator and web), the ones added for a database (the JDBC
 * starter and PostgreSQL's driver), the Java class, the {@code application.yml} for Actuator and the one for the
 * database.
 */
record QuickStartReadme(
        String dependencies, String databaseDependencies, String java, String yaml, String databaseYaml) {

    static final String SECTION = "## Quick start";

    private static final Pattern BLOCK = Pattern.compile("```(\\w*)\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern DEPENDENCY = Pattern.compile("<dependency>.*?</dependency>", Pattern.DOTALL);
    private static final Pattern AX_DEPENDENCY = Pattern.compile(
            "<groupId>io\\.ax</groupId>\\s*<artifactId>([^<]+)</artifactId>\\s*<version>([^<]+)</version>");
    private static final Pattern CLASS = Pattern.compile("\\bclass (\\w+)");
    private static final Pattern METHOD = Pattern.compile("\\bvoid (\\w+)\\(");

    /** Reads the snippets from {@code readme}; fails, naming what is missing, when the section lacks one. */
    static QuickStartReadme read(Path readme) throws IOException {
        String text = Files.readString(readme);
        int start = text.indexOf(SECTION);
        assertThat(start).as("README's Quick start").isNotNegative();
        int end = text.indexOf("\n## ", start + SECTION.length());
        String section = text.substring(start, end < 0 ? text.length() : end);
        List<String> xml = new ArrayList<>();
        String databaseXml = null;
        String java = null;
        List<String> yaml = new ArrayList<>();
        String databaseYaml = null;
        Matcher block = BLOCK.matcher(section);
        while (block.find()) {
            String language = block.group(1);
            String body = block.group(2);
            if (language.equals("xml") && body.contains("spring-boot-starter-jdbc")) {
                databaseXml = body;
            } else if (language.equals("xml")) {
                xml.add(body);
            } else if (language.equals("java") && java == null) {
                java = body;
            } else if (language.equals("yaml") && body.contains("datasource:")) {
                databaseYaml = body;
            } else if (language.equals("yaml")) {
                yaml.add(body);
            }
        }
        assertThat(xml).as("the Quick start's Maven dependencies").isNotEmpty();
        assertThat(databaseXml)
                .as("the Quick start's dependencies for a database")
                .isNotNull();
        assertThat(java).as("the Quick start's Java").isNotNull();
        assertThat(yaml).as("the Quick start's application.yml").isNotEmpty();
        assertThat(databaseYaml)
                .as("the Quick start's application.yml for a database")
                .isNotNull();
        return new QuickStartReadme(String.join("", xml), databaseXml, java, String.join("\n", yaml), databaseYaml);
    }

    /**
     * The database dependencies with the driver swapped for H2's: README says "On PostgreSQL (or MariaDB, or H2), add
     * the JDBC starter and the driver" and shows PostgreSQL's.
     */
    String h2Dependencies() {
        String h2 = "<dependency><groupId>com.h2database</groupId><artifactId>h2</artifactId>"
                + "<scope>runtime</scope></dependency>";
        List<String> swapped = new ArrayList<>();
        Matcher dependency = DEPENDENCY.matcher(databaseDependencies);
        while (dependency.find()) {
            String d = dependency.group();
            swapped.add(d.contains("<groupId>org.postgresql</groupId>") ? h2 : d);
        }
        assertThat(swapped)
                .as("the database dependencies name PostgreSQL's driver")
                .contains(h2);
        return String.join("\n", swapped) + "\n";
    }

    /** The AX artifacts the dependency snippets name, with the version they name. */
    Map<String, String> axArtifacts() {
        Map<String, String> versions = new LinkedHashMap<>();
        Matcher ax = AX_DEPENDENCY.matcher(dependencies + databaseDependencies);
        while (ax.find()) {
            versions.put(ax.group(1), ax.group(2));
        }
        assertThat(versions).as("the AX artifacts of the Quick start").isNotEmpty();
        return versions;
    }

    /** The name AX gives the snippet's job when it names none: {@code beanName.methodName}. */
    String taskName() {
        Matcher type = CLASS.matcher(java);
        Matcher method = METHOD.matcher(java);
        assertThat(type.find() && method.find())
                .as("the Quick start's Java has a class and a job method")
                .isTrue();
        String bean =
                Character.toLowerCase(type.group(1).charAt(0)) + type.group(1).substring(1);
        return bean + "." + method.group(1);
    }
}
