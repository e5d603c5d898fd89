package io.erasure.store.s3;

import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.tck.ContractTable;
import io.erasure.store.tck.StoreAdapterContractTest;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The SPI contract against a real S3-compatible server (s3proxy). A contract row is the object
 * {@code contract/<table>/<id>.json} holding {@code {"payload": …, "score": …}}; the connection allows only keys
 * under {@code contract/}, so {@link ContractTable#missing} is a template outside it.
 *
 * <p>S3 sets LastModified itself, to the server's "now": the fixture cannot write an object "at" the contract's
 * BEFORE time, an hour ago, and every object would be newer than the contract's cut-off. The contract's deletes
 * therefore run at a cut-off at the end of the server's current second ({@link #batch}): every object the fixture
 * wrote is at or before it, which is what the contract means. The adapter declares {@code cutoffConditioned=false}
 * (see {@link S3ObjectAdapter}), so the contract's cut-off tests are skipped; {@code ConcurrentWritesIT} tests the
 * LastModified and ETag checks with cut-offs from the server's clock. The fixture keeps the contract's write time in
 * user metadata, which a restore must keep.
 */
class S3ObjectAdapterContractIT extends StoreAdapterContractTest {

    private static final String BUCKET = "contract-owner";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static StoreAdapter adapter;

    @BeforeAll
    static void open() {
        TestS3.createBucket(BUCKET);
        adapter = TestS3.open(BUCKET, Map.of("key-prefixes", "contract/"));
    }

    @AfterAll
    static void close() {
        adapter.close();
    }

    @Override
    protected StoreAdapter adapter() {
        return adapter;
    }

    @Override
    protected ContractTable table() {
        return new S3ContractTable();
    }

    @Override
    protected DeleteBatch batch(List<Map<String, Object>> keys) {
        return new DeleteBatch(spec, "batch-s3-contract", TestS3.serverCutoff(), keys);
    }

    /** Rows as JSON objects {@code contract/<table>/<id>.json}; the write time in user metadata. */
    static final class S3ContractTable implements ContractTable {

        private static final String WRITE_TIME = "contract-write-time-micros";

        @Override
        public DatasetSpec create(String table) {
            return spec(table, "contract/" + table + "/{id}.json");
        }

        @Override
        public DatasetSpec missing(String table) {
            return spec(table, "unregistered/" + table + "/{id}.json");
        }

        @Override
        public void write(
                DatasetSpec spec, long id, String payload, int score, long writeTimeMicros, Integer ttlSeconds) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("payload", payload);
            row.put("score", score);
            TestS3.put(
                    BUCKET,
                    key(spec, id),
                    JSON.writeValueAsString(row).getBytes(StandardCharsets.UTF_8),
                    "application/json",
                    Map.of(WRITE_TIME, Long.toString(writeTimeMicros)));
        }

        @Override
        public Optional<FixtureRow> read(DatasetSpec spec, long id) {
            return TestS3.get(BUCKET, key(spec, id)).map(object -> {
                JsonNode row = JSON.readTree(object.asUtf8String());
                return new FixtureRow(
                        id,
                        row.get("payload").asString(),
                        row.get("score").asInt(),
                        Long.parseLong(object.response().metadata().get(WRITE_TIME)),
                        null);
            });
        }

        /** Objects {@code contract/<table>/<id>.bin}: bytes of every value, then UTF-8 text beyond ASCII. */
        @Override
        public Optional<DatasetSpec> createForExtremeValues(String table) {
            return Optional.of(spec(table, "contract/" + table + "/{id}.bin"));
        }

        @Override
        public void writeExtremeValues(DatasetSpec spec, long id, long writeTimeMicros) {
            ByteArrayOutputStream content = new ByteArrayOutputStream();
            for (int i = 0; i < 256; i++) {
                content.write(255 - i);
            }
            content.writeBytes("Zo\u00eb \u2211 \uD83D\uDE00 12345678901234567.891".getBytes(StandardCharsets.UTF_8));
            TestS3.put(
                    BUCKET,
                    key(spec, id),
                    content.toByteArray(),
                    "application/octet-stream",
                    Map.of(WRITE_TIME, Long.toString(writeTimeMicros), "smallest", Long.toString(Long.MIN_VALUE)));
        }

        /** The content as base64, its content type and every user metadata entry. */
        @Override
        public Optional<Map<String, String>> readExactly(DatasetSpec spec, long id) {
            return TestS3.get(BUCKET, key(spec, id)).map(object -> {
                Map<String, String> row = new LinkedHashMap<>();
                row.put("content", Base64.getEncoder().encodeToString(object.asByteArray()));
                row.put("contentType", object.response().contentType());
                object.response().metadata().forEach((name, value) -> row.put("metadata." + name, value));
                return row;
            });
        }

        private static String key(DatasetSpec spec, long id) {
            return ((CopyTarget.KeyTemplate) spec.target()).render(Map.of("id", id));
        }

        private static DatasetSpec spec(String table, String template) {
            String name = "s3-" + table.replace('_', '-');
            return DatasetSpec.builder()
                    .name(name)
                    .storeKind(StoreKind.S3_OBJECT)
                    .connectionRef("s3-test")
                    .namespace("contract")
                    .table(table)
                    .keyColumns(KeyColumns.partitionOnly("id"))
                    .identifierColumn("id")
                    .identifierSource("customers")
                    .conditionalColumn(ConditionalColumn.none())
                    .target(new CopyTarget.KeyTemplate(template))
                    .backup(S3Layout.defaultBackupLocation(name, BackupFormat.JSONL_GZIP))
                    .limits(DeletionLimits.fraction(0.5))
                    .ownerTeam("storage")
                    .build();
        }
    }
}
