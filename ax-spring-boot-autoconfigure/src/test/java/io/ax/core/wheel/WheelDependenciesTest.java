package io.ax.core.wheel;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

class WheelDependenciesTest {

    @Test
    void theWheelDependsOnTheJdkOnly() {
        JavaClasses wheel = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.ax.core.wheel");

        noClasses()
                .should()
                .dependOnClassesThat()
                .resideOutsideOfPackages("java..", "io.ax.core.wheel..")
                .check(wheel);
    }
}
