package io.erasure.support.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;

/**
 * The architecture test of one service: extend it with the service's root package (and, where a rule has a known
 * exception, the classes it allows, each a debt the subclass names).
 */
public abstract class ServiceArchitectureTest {

    private final String root;
    private final String[] adapterInternalsAllowedIn;
    private final JavaClasses classes;

    protected ServiceArchitectureTest(String root, String... adapterInternalsAllowedIn) {
        this.root = root;
        this.adapterInternalsAllowedIn = adapterInternalsAllowedIn;
        this.classes = ServiceArchitectureRules.classesOf(root);
    }

    @Test
    void featurePackagesAreFreeOfCycles() {
        ServiceArchitectureRules.featurePackagesAreFreeOfCycles(root).check(classes);
    }

    @Test
    void onlyControllersSpeakHttp() {
        ServiceArchitectureRules.onlyControllersSpeakHttp(root).check(classes);
    }

    @Test
    void storesAreReachedThroughTheSpi() {
        ServiceArchitectureRules.noAdapterInternals(root, adapterInternalsAllowedIn)
                .check(classes);
    }
}
