package io.erasure.store.cassandra.bulk;

import java.time.Clock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The bulk path's {@code sstableloader} loader against the real local node (forced: {@code auto} imports for a local
 * node): SSTables written in a child JVM, streamed by {@code org.apache.cassandra.tools.BulkLoader} in another, read
 * back, with the same rules as the import (cut-off + 1 µs, remaining TTL, newer data kept).
 */
class BulkRestorerSSTableLoaderIT {

    private static BulkRestoreFixture fixture;

    @BeforeAll
    static void open() {
        fixture = BulkRestoreFixture.open(
                "bulk_loader_restores",
                "run-bulk-loader",
                (adapter, direct) -> BulkFixtures.bulkRestorer(
                        adapter, Clock.systemUTC(), BulkSettings.Loader.SSTABLELOADER, direct));
    }

    @AfterAll
    static void close() {
        fixture.close();
    }

    @Test
    void rowsStreamedBySstableloaderComeBackIdenticalAtTheCutoffPlusOneMicrosecondWithTheirRemainingTtl() {
        fixture.deletedProfilesComeBackIdenticalAtTheCutoffPlusOneMicrosecondWithTheirRemainingTtl(30);
    }

    @Test
    void aRowReinsertedAfterTheDeleteIsKeptAndTheOthersAreStreamed() {
        fixture.aRowReinsertedAfterTheDeleteIsKeptAndTheOthersAreRestored();
    }
}
