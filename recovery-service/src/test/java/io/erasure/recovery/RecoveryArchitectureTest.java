package io.erasure.recovery;

import io.erasure.support.architecture.ServiceArchitectureTest;

class RecoveryArchitectureTest extends ServiceArchitectureTest {

    RecoveryArchitectureTest() {
        super("io.erasure.recovery");
    }
}
