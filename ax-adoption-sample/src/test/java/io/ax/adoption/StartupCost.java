package io.ax.adoption;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.DefaultResourceLoader;

/**
 * What adoption adds to start-up: an application of {@code --methods} (default 500) {@code @Scheduled} methods (a
 * third cron, a third fixed rate, a third fixed delay; compiled here, into a class of its own) started on an
 * in-memory H2 database with {@code --adopt=off} or {@code --adopt=all}. Prints the time from {@code run} to a
 * started context; run it as a whole process beside the other setting to see the cost per start.
 *
 * <pre>java -cp &lt;test class path&gt; io.ax.adoption.StartupCost --adopt=all [--methods=500]</pre>
 */
public final class StartupCost {

    private StartupCost() {}

    public static void main(String[] args) throws Exception {
        String adopt = option(args, "adopt", "off");
        int methods = Integer.parseInt(option(args, "methods", "500"));
        ClassLoader loader = compile(methods);
        Class<?> app = loader.loadClass("bench.ManyJobs");
        SpringApplication application = new SpringApplication(new DefaultResourceLoader(loader), app);
        application.setWebApplicationType(WebApplicationType.NONE);
        long start = System.nanoTime();
        try (ConfigurableApplicationContext context = application.run(
                "--spring.datasource.url=jdbc:h2:mem:startup;DB_CLOSE_DELAY=-1",
                "--spring.datasource.username=sa",
                "--spring.quartz.auto-startup=false",
                "--logging.level.root=WARN",
                "--ax.adopt.scheduled=" + adopt)) {
            long millis = (System.nanoTime() - start) / 1_000_000;
            int tasks =
                    context.getBean(io.ax.core.engine.AxEngine.class).tasks().size();
            System.out.printf("adopt=%s methods=%d AX tasks=%d started in %d ms%n", adopt, methods, tasks, millis);
        }
    }

    /** A Spring Boot application class with {@code methods} scheduled methods, compiled into a class loader. */
    private static ClassLoader compile(int methods) throws IOException {
        StringBuilder source = new StringBuilder("""
                package bench;

                @org.springframework.boot.autoconfigure.SpringBootApplication
                @org.springframework.scheduling.annotation.EnableScheduling
                public class ManyJobs {
                """);
        for (int i = 0; i < methods; i++) {
            String schedule = switch (i % 3) {
                case 0 -> "cron = \"" + (i % 60) + " */5 * * * *\"";
                case 1 -> "fixedRate = " + (60_000 + i);
                default -> "fixedDelayString = \"PT" + (60 + i) + "S\"";
            };
            source.append("    @org.springframework.scheduling.annotation.Scheduled(")
                    .append(schedule)
                    .append(")\n    public void job")
                    .append(i)
                    .append("() {}\n");
        }
        source.append("}\n");
        Path dir = Files.createTempDirectory("ax-startup");
        Path file = dir.resolve("bench/ManyJobs.java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, source);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int status = javac.run(
                null, null, null, "-cp", System.getProperty("java.class.path"), "-d", dir.toString(), file.toString());
        if (status != 0) {
            throw new IllegalStateException("the generated application did not compile");
        }
        return new URLClassLoader(new URL[] {dir.toUri().toURL()}, StartupCost.class.getClassLoader());
    }

    private static String option(String[] args, String name, String fallback) {
        for (String arg : args) {
            if (arg.startsWith("--" + name + "=")) {
                return arg.substring(name.length() + 3);
            }
        }
        return fallback;
    }
}
