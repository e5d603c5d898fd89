package io.erasure.validation;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.erasure.support.architecture.ServiceArchitectureRules;
import org.junit.jupiter.api.Test;

class ValidationArchitectureTest {

    private static final String ROOT = "io.erasure.validation";
    private final JavaClasses classes = ServiceArchitectureRules.classesOf(ROOT);

    @Test
    void featurePackagesAreFreeOfCycles() {
        ServiceArchitectureRules.featurePackagesAreFreeOfCycles(ROOT).check(classes);
    }

    @Test
    void onlyControllersSpeakHttp() {
        ServiceArchitectureRules.onlyControllersSpeakHttp(ROOT).check(classes);
    }

    @Test
    void storesAreReachedThroughTheSpi() {
        ServiceArchitectureRules.noAdapterInternals(ROOT).check(classes);
    }
}
