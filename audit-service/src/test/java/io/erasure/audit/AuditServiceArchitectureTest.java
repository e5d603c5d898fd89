package io.erasure.audit;

import io.erasure.support.architecture.ServiceArchitectureTest;

class AuditServiceArchitectureTest extends ServiceArchitectureTest {

    AuditServiceArchitectureTest() {
        super("io.erasure.audit");
    }
}
