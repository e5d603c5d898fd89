package io.erasure.controlplane;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;

class ControlPlaneArchitectureTest {

    private final JavaClasses controlPlane = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.erasure.controlplane");

    @Test
    void featurePackagesDependOnEachOtherInOneDirection() {
        slices().matching("io.erasure.controlplane.(*)..")
                .should()
                .beFreeOfCycles()
                .because("a feature package (registry, run, forward, ...) is read and changed on its own; a cycle"
                        + " makes two of them one. Move what both need to the one below (as the forward policies moved"
                        + " to registry), or pass a value instead of the other's service")
                .check(controlPlane);
    }

    @Test
    void runsDoNotDependOnForwardDeletion() {
        noClasses()
                .that()
                .resideInAPackage("io.erasure.controlplane.run..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.erasure.controlplane.forward..")
                .because("forward deletion builds on runs (it applies their events through RunEventGate), never the"
                        + " other way: a run's lifecycle must not change with how upstream requests are handled")
                .check(controlPlane);
    }

    @Test
    void onlyControllersAndTheApiPackageSpeakHttp() {
        noClasses()
                .that()
                .areNotAnnotatedWith(RestController.class)
                .and()
                .areNotAnnotatedWith(RestControllerAdvice.class)
                .and()
                .resideOutsideOfPackage("io.erasure.controlplane.api..")
                .should()
                .dependOnClassesThat()
                .haveFullyQualifiedName("org.springframework.http.HttpStatus")
                .because("what a refusal means is the domain's; which status answers it is the web layer's: throw"
                        + " a Refusal through its named factories (notFound, conflict, unprocessable, ...); ApiErrors"
                        + " answers each kind with its status")
                .check(controlPlane);
    }

    @Test
    void refusalsAreTheDomainsAndKnowNothingOfTheWeb() {
        noClasses()
                .that()
                .resideInAPackage("io.erasure.controlplane.refusal..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.springframework..", "io.erasure.controlplane.api..")
                .because("a service throws a Refusal whether a controller, a listener or a scheduler called it;"
                        + " only ApiErrors turns one into an HTTP answer")
                .check(controlPlane);
    }

    @Test
    void decisionsReadAndWriteNothing() {
        noClasses()
                .that()
                .haveNameMatching("io\\.erasure\\.controlplane\\.(run\\.RunLifecycle|forward\\.TargetPlan"
                        + "|forward\\.TargetConfirmation)(\\$.*)?")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.springframework..", "java.sql..", "javax.sql..", "tools.jackson..")
                .because("what becomes of a run or of a forward target is decided apart from where it is kept:"
                        + " RunProgress, ForwardTargets and ForwardProgress read, ask the decision, and write, so that"
                        + " each decision is tested on its own, every branch, without a database")
                .check(controlPlane);
    }
}
