package io.erasure.store.http;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.tck.ContractTable;
import io.erasure.store.tck.StoreAdapterContractTest;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The SPI contract against a real HTTP owner service on loopback ({@link FakeOwnerService}), whose in-memory map
 * is the owner's store. The adapter declares neither restores nor cut-off conditioned deletes, so those contract
 * tests are skipped.
 */
class HttpCallbackAdapterContractIT extends StoreAdapterContractTest {

    private static FakeOwnerService owner;
    private static StoreAdapter adapter;

    @BeforeAll
    static void open() {
        owner = FakeOwnerService.start();
        adapter = CallbackFixtures.open(CallbackFixtures.loopbackSettings());
    }

    @AfterAll
    static void close() {
        adapter.close();
        owner.close();
    }

    @Override
    protected StoreAdapter adapter() {
        return adapter;
    }

    @Override
    protected ContractTable table() {
        return new OwnerTable();
    }

    /** A table of the owner's map, reached by {@code /<table>/delete} and {@code /<table>/check}. */
    static final class OwnerTable implements ContractTable {

        @Override
        public DatasetSpec create(String table) {
            owner.createTable(table);
            return CallbackFixtures.spec(table, owner.url(table, "delete"), owner.url(table, "check"));
        }

        /** A callback to a host that is not on the allow-list: the URL, and so the message, names the table. */
        @Override
        public DatasetSpec missing(String table) {
            return CallbackFixtures.spec(table, "https://unlisted.example.com/" + table + "/delete", null);
        }

        @Override
        public void write(
                DatasetSpec spec, long id, String payload, int score, long writeTimeMicros, Integer ttlSeconds) {
            owner.put(spec.table(), new FixtureRow(id, payload, score, writeTimeMicros, null));
        }

        @Override
        public Optional<FixtureRow> read(DatasetSpec spec, long id) {
            return owner.get(spec.table(), id);
        }
    }
}
