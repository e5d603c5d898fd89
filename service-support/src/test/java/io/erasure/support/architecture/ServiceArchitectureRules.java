package io.erasure.support.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * The rules every service keeps, for its own architecture test (service-support's test-jar): its classes under
 * {@code io.erasure.<service>}, feature packages one level below.
 */
public final class ServiceArchitectureRules {

    private ServiceArchitectureRules() {}

    /** The service's production classes. */
    public static JavaClasses classesOf(String rootPackage) {
        return new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(rootPackage);
    }

    public static ArchRule featurePackagesAreFreeOfCycles(String rootPackage) {
        return slices().matching(rootPackage + ".(*)..")
                .should()
                .beFreeOfCycles()
                .because("a feature package is read and changed on its own; a cycle makes two of them one. Move what"
                        + " both need to the one below, or pass a value instead of the other's service");
    }

    public static ArchRule onlyControllersSpeakHttp(String rootPackage) {
        return noClasses()
                .that()
                .resideInAPackage(rootPackage + "..")
                .and()
                .areNotAnnotatedWith(RestController.class)
                .and()
                .areNotAnnotatedWith(RestControllerAdvice.class)
                .should()
                .dependOnClassesThat()
                .haveFullyQualifiedName("org.springframework.http.HttpStatus")
                .because("which status answers a refusal is the web layer's: the rest of a service says what went"
                        + " wrong in its own terms, and its controllers answer it");
    }

    /** {@code known}: classes (fully qualified names) allowed to, each a known debt its test names. */
    public static ArchRule noAdapterInternals(String rootPackage, String... known) {
        return noClasses()
                .that()
                .resideInAPackage(rootPackage + "..")
                .and(DescribedPredicate.not(JavaClass.Predicates.belongToAnyOf(classes(known))))
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.erasure.store.cassandra..",
                        "io.erasure.store.postgres..",
                        "io.erasure.store.redis..",
                        "io.erasure.store.s3..",
                        "io.erasure.store.http..")
                .because("services reach stores through the SPI (io.erasure.store.spi) and the adapter pool, found by"
                        + " type through ServiceLoader: an adapter's internals used directly tie the service to one"
                        + " store and skip the checks every adapter passes");
    }

    private static Class<?>[] classes(String... names) {
        Class<?>[] classes = new Class<?>[names.length];
        for (int i = 0; i < names.length; i++) {
            try {
                classes[i] = Class.forName(names[i]);
            } catch (ClassNotFoundException e) {
                throw new IllegalArgumentException("no class " + names[i] + ": remove it from the known exceptions", e);
            }
        }
        return classes;
    }
}
