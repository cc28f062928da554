package io.ax;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.ax.core.engine.AxEngine;
import org.junit.jupiter.api.Test;

/** The engine can be embedded in any JVM process: {@code io.ax.core..} needs the JDK and nothing else. */
class ArchitectureTest {

    private static final JavaClasses AX = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.ax");

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
     * rightly): the facade only builds its parts and delegates to them.
     */
    @Test
    void noClassOfTheEngineButTheFacadeHoldsIt() {
        fields().that()
                .areDeclaredInClassesThat()
                .resideInAPackage("io.ax.core..")
                .and()
                .haveRawType(AxEngine.class)
                .should()
                .beDeclaredInClassesThat()
                .haveNameMatching("io\\.ax\\.core\\.engine\\.AxEngine(\\$.*)?")
                .check(AX);
    }
}
