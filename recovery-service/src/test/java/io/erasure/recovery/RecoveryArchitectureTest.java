package io.erasure.recovery;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.erasure.support.architecture.ServiceArchitectureRules;
import org.junit.jupiter.api.Test;

class RecoveryArchitectureTest {

    private static final String ROOT = "io.erasure.recovery";
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
        // known debt: the Cassandra bulk restore path (SSTables) is reached directly, not through an optional SPI
        // interface of the adapter; these are the only two classes allowed to
        ServiceArchitectureRules.noAdapterInternals(
                        ROOT, "io.erasure.recovery.restore.BulkRestores", "io.erasure.recovery.RecoveryProperties")
                .check(classes);
    }
}
