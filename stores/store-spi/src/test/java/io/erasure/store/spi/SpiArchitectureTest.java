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
    void theSpiAndTheModelDependOnNothingButTheJdkAndJacksonAnnotations() {
        classes()
                .that()
                .resideInAnyPackage("io.erasure.store.spi..", "io.erasure.model..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(
                        "java..", "io.erasure.store.spi..", "io.erasure.model..", "com.fasterxml.jackson.annotation..")
                .because(
                        "adapters and every service share these types: a framework here would force its version on all"
                                + " of them (Kafka Connect's connect-api is the model). Wire frameworks in the service modules instead.")
                .check(spiAndModel);
    }
}
