package io.erasure.validation;

import io.erasure.support.architecture.ServiceArchitectureTest;

class ValidationArchitectureTest extends ServiceArchitectureTest {

    ValidationArchitectureTest() {
        super("io.erasure.validation");
    }
}
