package io.erasure.deletionlog;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.erasure.support.architecture.ServiceArchitectureRules;
import org.junit.jupiter.api.Test;

class DeletionLogArchitectureTest {

    private static final String ROOT = "io.erasure.deletionlog";
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
