package io.erasure.deletion;

import io.erasure.support.architecture.ServiceArchitectureTest;

class DeletionArchitectureTest extends ServiceArchitectureTest {

    DeletionArchitectureTest() {
        super("io.erasure.deletion");
    }
}
