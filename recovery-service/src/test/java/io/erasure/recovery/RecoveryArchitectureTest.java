package io.erasure.recovery;

import io.erasure.support.architecture.ServiceArchitectureTest;

class RecoveryArchitectureTest extends ServiceArchitectureTest {

    // known debt: the Cassandra bulk restore path (SSTables) is reached directly, not through an optional SPI interface
    // of the adapter; these two classes are the only ones allowed to
    RecoveryArchitectureTest() {
        super(
                "io.erasure.recovery",
                "io.erasure.recovery.restore.BulkRestores",
                "io.erasure.recovery.RecoveryProperties");
    }
}
