package io.erasure.deletionlog;

import io.erasure.support.architecture.ServiceArchitectureTest;

class DeletionLogArchitectureTest extends ServiceArchitectureTest {

    DeletionLogArchitectureTest() {
        super("io.erasure.deletionlog");
    }
}
