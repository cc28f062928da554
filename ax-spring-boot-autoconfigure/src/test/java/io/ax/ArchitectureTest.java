package io.ax;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaModifier.PUBLIC;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noFields;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.AxEngineBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The engine can be embedded in any JVM process: {@code io.ax.core..} needs the JDK and nothing else. */
class ArchitectureTest {

    private static final JavaClasses AX = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.ax");

    /** The facade stays wiring and delegation; a long file of the core says at its top why it is long. */
    @Test
    void theFacadeIsShortAndALongFileOfTheCoreSaysWhy() throws IOException {
        Path core = Path.of("src/main/java/io/ax/core");
        assertThat(Files.readAllLines(core.resolve("engine/AxEngine.java")))
                .as("AxEngine's lines")
                .hasSizeLessThanOrEqualTo(400);
        List<String> unexplained = new ArrayList<>();
        try (Stream<Path> files = Files.walk(core)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> {
                List<String> lines = lines(f);
                boolean says = lines.stream().limit(120).anyMatch(l -> l.contains("Why it is long"));
                if (lines.size() > 450 && !says) {
                    unexplained.add(core.relativize(f) + " (" + lines.size() + " lines)");
                }
            });
        }
        assertThat(unexplained)
                .as("files over 450 lines without a reason at their top")
                .isEmpty();
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void coreImportsNothingFromSpring() {
        noClasses()
                .that()
                .resideInAPackage("io.ax.core..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.springframework..")
                .check(AX);
    }

    @Test
    void coreDependsOnlyOnTheJdk() {
        noClasses()
                .that()
                .resideInAPackage("io.ax.core..")
                .should()
                .dependOnClassesThat()
                .resideOutsideOfPackages("java..", "io.ax.core..")
                .check(AX);
    }

    @Test
    void coreDoesNotReachIntoTheOuterRooms() {
        noClasses()
                .that()
                .resideInAPackage("io.ax.core..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.ax.autoconfigure..", "io.ax.executor..", "io.ax.jdbc..", "io.ax.redis..")
                .check(AX);
    }

    @Test
    void theEnginesWritesKnowNothingOfTheEngineAboveThem() {
        noClasses()
                .that()
                .resideInAPackage("io.ax.core.engine.writes..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.ax.core.engine")
                .check(AX);
    }

    /**
     * A class of the engine is given what it uses, never the facade (which applications and the Spring side hold,
     * rightly): the facade only has its parts built and delegates to them.
     */
    @Test
    void noClassOfTheEngineHoldsTheFacade() {
        noFields()
                .that()
                .areDeclaredInClassesThat()
                .resideInAPackage("io.ax.core..")
                .should()
                .haveRawType(AxEngine.class)
                .check(AX);
    }

    /**
     * The wiring of the parts is held by the facade, by the start and stop and by the wiring's own adapters (the
     * small interfaces it implements for a part), and handed to no part: a part that held it could reach every other
     * part through it.
     */
    @Test
    void onlyTheFacadeAndItsStartAndStopHoldTheWiring() {
        fields().that()
                .haveRawType("io.ax.core.engine.EngineParts")
                .should()
                .beDeclaredInClassesThat()
                .haveNameMatching("io\\.ax\\.core\\.engine\\.(AxEngine|EngineLifecycle|EngineParts\\$\\d+)")
                .check(AX);
    }

    /**
     * The rooms below the facade never reach up to it: they see the facade's package only through its public
     * settings and extension points (which reach no room themselves), never the facade or its builder.
     */
    @Test
    void theRoomsBelowTheFacadeNeverReachUpToIt() {
        noClasses()
                .that()
                .resideInAnyPackage(ROOMS)
                .should()
                .dependOnClassesThat()
                .belongToAnyOf(AxEngine.class, AxEngineBuilder.class)
                .check(AX);
    }

    @Test
    void theFacadesSettingsAndExtensionPointsReachNoRoom() {
        classes()
                .that()
                .resideInAPackage("io.ax.core.engine")
                .and()
                .haveModifier(PUBLIC)
                .and()
                .doNotBelongToAnyOf(AxEngine.class, AxEngineBuilder.class)
                .should()
                .onlyDependOnClassesThat(resideInAnyPackage(ROOMS).negate())
                .check(AX);
    }

    /** The engine's threads and what they hand one another: the floor of every room. */
    @Test
    void theThreadsKnowNoRoom() {
        noClasses()
                .that()
                .resideInAPackage("io.ax.core.engine.threads..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(without("io.ax.core.engine.threads.."))
                .check(AX);
    }

    @Test
    void insightKnowsOnlyTheThreads() {
        noClasses()
                .that()
                .resideInAPackage("io.ax.core.engine.insight..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(without("io.ax.core.engine.insight..", "io.ax.core.engine.threads.."))
                .check(AX);
    }

    /**
     * Dependencies run one way: a room knows only the rooms below it (the order of {@link #ROOMS}), never one above
     * it, so that an upward call is a small interface owned by the lower room (as {@code Dispatcher.Holders}, which
     * ownership implements for the work).
     */
    @Test
    void eachRoomKnowsOnlyTheRoomsBelowIt() {
        for (int i = 0; i < ROOMS.length - 1; i++) {
            noClasses()
                    .that()
                    .resideInAPackage(ROOMS[i])
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(Arrays.copyOfRange(ROOMS, i + 1, ROOMS.length))
                    .check(AX);
        }
    }

    /**
     * Delayed tasks, workflows and runtime definitions sit side by side: none of them calls another. They stand on
     * the threads, the writes and the terms of decisions (a workflow's sweep is one round of a term).
     */
    @Test
    void schedulingWorkflowsAndDefinitionsKnowNoneOfEachOther() {
        for (String room : List.of(
                "io.ax.core.engine.scheduling..", "io.ax.core.engine.workflows..", "io.ax.core.engine.definitions..")) {
            noClasses()
                    .that()
                    .resideInAPackage(room)
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(without(
                            room,
                            "io.ax.core.engine.threads..",
                            "io.ax.core.engine.writes..",
                            "io.ax.core.engine.terms.."))
                    .check(AX);
        }
    }

    /**
     * The work: claims, pools, attempts and their outcomes. It runs what the rooms above decide and records it
     * through the writes; of the rooms beside it, only workflows (a step's context reads its run).
     */
    @Test
    void workKnowsOnlyTheRoomsBelowIt() {
        noClasses()
                .that()
                .resideInAPackage("io.ax.core.engine.work..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(without(
                        "io.ax.core.engine.work..",
                        "io.ax.core.engine.threads..",
                        "io.ax.core.engine.writes..",
                        "io.ax.core.engine.insight..",
                        "io.ax.core.engine.terms..",
                        "io.ax.core.engine.workflows.."))
                .check(AX);
    }

    /** At which epoch a decision is taken and how it is fenced: it knows only the threads and the writes below it. */
    @Test
    void termsKnowOnlyTheThreadsAndTheWrites() {
        noClasses()
                .that()
                .resideInAPackage("io.ax.core.engine.terms..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(without(
                        "io.ax.core.engine.terms..", "io.ax.core.engine.threads..", "io.ax.core.engine.writes.."))
                .check(AX);
    }

    /** The rooms under {@code io.ax.core.engine}, lowest first. */
    private static final String[] ROOMS = {
        "io.ax.core.engine.threads..",
        "io.ax.core.engine.writes..",
        "io.ax.core.engine.insight..",
        "io.ax.core.engine.terms..",
        "io.ax.core.engine.scheduling..",
        "io.ax.core.engine.workflows..",
        "io.ax.core.engine.definitions..",
        "io.ax.core.engine.work.."
    };

    /**
     * Every room but the ones given. (What the facade's package holds besides its public settings is package-private:
     * the compiler keeps it out of every room's reach.)
     */
    private static String[] without(String... allowed) {
        return Arrays.stream(ROOMS).filter(r -> !List.of(allowed).contains(r)).toArray(String[]::new);
    }
}
