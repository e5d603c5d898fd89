package io.erasure.store.http;

import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreAdapters;
import io.erasure.store.spi.StoreConnection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Specs and connections of the HTTP-callback tests. */
final class CallbackFixtures {

    static final String CONNECTION = "owner-callbacks";
    static final String SECRET = "owner-token";
    static final String PAYLOAD =
            "{\"dataset\": \"{dataset}\", \"batchId\": \"{batchId}\", \"cutoffMicros\": {cutoffMicros},"
                    + " \"keys\": {keys}}";

    private CallbackFixtures() {}

    /**
     * Settings for the fake owner on loopback: 127.0.0.1 allowed explicitly by operators (every other non-public
     * address stays refused), the owner's token as secret, short backoff.
     */
    static Map<String, String> loopbackSettings() {
        Map<String, String> settings = new HashMap<>();
        settings.put("allowed-hosts", "127.0.0.1,localhost");
        settings.put("allowed-addresses", "127.0.0.1/32");
        settings.put("secret." + SECRET, FakeOwnerService.TOKEN);
        // the token is the owners team's: only its specs may send it
        settings.put("secret-teams." + SECRET, "owners");
        settings.put("max-attempts", "3");
        settings.put("backoff-ms", "20");
        return settings;
    }

    /** An adapter found the way services find it: by type, through META-INF/services. */
    static StoreAdapter open(Map<String, String> settings) {
        return StoreAdapters.load().open(new StoreConnection(CONNECTION, StoreKind.HTTP_CALLBACK, settings));
    }

    /** An HTTP_CALLBACK dataset keyed by {@code id}, sending {@code Authorization: secret:owner-token}. */
    static DatasetSpec spec(String table, String url, String checkUrl) {
        return spec(
                table,
                new CopyTarget.HttpCallback(
                        url, "POST", Map.of("Authorization", "secret:" + SECRET), PAYLOAD, List.of("id"), checkUrl));
    }

    static DatasetSpec spec(String table, CopyTarget.HttpCallback callback) {
        String name = ("owner-" + table).replace('_', '-');
        return DatasetSpec.builder()
                .name(name)
                .storeKind(StoreKind.HTTP_CALLBACK)
                .connectionRef(CONNECTION)
                .namespace("owner")
                .table(table)
                .keyColumns(KeyColumns.of(callback.keyColumns(), List.of()))
                .identifierColumn(callback.keyColumns().get(0))
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.none())
                .backup(S3Layout.defaultBackupLocation(name, BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.5))
                .ownerTeam("owners")
                .target(callback)
                .build();
    }
}
