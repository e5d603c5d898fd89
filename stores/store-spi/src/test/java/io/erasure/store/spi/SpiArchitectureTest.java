package io.erasure.store.spi;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

class SpiArchitectureTest {

    private final JavaClasses spiAndModel = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.erasure.store.spi", "io.erasure.model");

    @Test
    void theSpiAndTheModelDependOnNothingButTheJdkAndAnnotations() {
        classes()
                .that()
                .resideInAnyPackage("io.erasure.store.spi..", "io.erasure.model..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(
                        "java..",
                        "io.erasure.store.spi..",
                        "io.erasure.model..",
                        "com.fasterxml.jackson.annotation..",
                        "org.jspecify.annotations..")
                .because("adapters and every service share these types: a framework here would force its version on all"
                        + " of them (Kafka Connect's connect-api is the model). Wire frameworks in the service modules"
                        + " instead; annotations that only describe the types (Jackson's,"
                        + " JSpecify's nullness) are fine.")
                .check(spiAndModel);
    }
}
