package io.erasure.support.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;

/** Deletion records keep every value exactly through the JSON of the log topic and the log. */
class PlatformJsonTest {

    private static final JsonMapper JSON = PlatformJson.mapper();
    /** As deletion-log-service's ingest reads the topic. */
    private static final ObjectReader INGEST =
            JSON.readerFor(DeletionRecord.class).without(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    @Test
    void aRecordReadBackFromItsJsonHoldsEveryValueAsTheStoreGaveIt() {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("amount", new BigDecimal("12345678901234567.891"));
        document.put("scale", new BigDecimal("1.000"));
        document.put("nested", List.of(new BigDecimal("0.1"), Map.of("x", new BigDecimal("2.50"))));
        List<ColumnValue> columns = List.of(
                ColumnValue.of("amount", new BigDecimal("12345678901234567.891")),
                ColumnValue.of("wide", new BigDecimal("123456789012345678901234567890.123456789012345678901234567890")),
                ColumnValue.of("tiny", new BigDecimal("1E-40")),
                ColumnValue.of("smallest", Long.MIN_VALUE),
                ColumnValue.of("largest", Long.MAX_VALUE),
                ColumnValue.of("huge", new BigInteger("123456789012345678901234567890")),
                ColumnValue.of("amounts", Arrays.asList(new BigDecimal("-1.000"), null, new BigDecimal("1E-30"))),
                ColumnValue.of("doc", document),
                ColumnValue.of("note", "Zo\u00eb \u2211 \uD83D\uDE00 \"quoted\" \\ back\nslash"),
                ColumnValue.of("bytes", "AP+AfwE="),
                ColumnValue.of("at", "2024-02-29T23:59:59.999999+00:00"),
                new ColumnValue("ttl_cell", "x", 1_700_000_000_123_456L, 3600));
        Map<String, Object> key = Map.of("id", new BigDecimal("98765432109876543.21"));
        DeletionRecord published = record(key, columns);

        DeletionRecord ingested = INGEST.readValue(JSON.writeValueAsString(published));

        assertThat(ingested.columns()).isEqualTo(columns);
        assertThat(ingested.primaryKey()).isEqualTo(key);
        assertThat(ingested.idMatchesContent())
                .as("the id is still the id of the key")
                .isTrue();
        assertThat(JSON.writeValueAsString(ingested)).isEqualTo(JSON.writeValueAsString(published));
    }

    @Test
    void aDoubleComesBackWithTheSameDigits() {
        DeletionRecord published = record(
                Map.of("id", 1L),
                List.of(ColumnValue.of("ratio", 0.30000000000000004), ColumnValue.of("single", 3.4028235e38)));

        DeletionRecord ingested = INGEST.readValue(JSON.writeValueAsString(published));

        assertThat(ingested.columns())
                .extracting(ColumnValue::value)
                .containsExactly(new BigDecimal("0.30000000000000004"), new BigDecimal("3.4028235E+38"));
    }

    @Test
    void aRecordPublishedBeforeThisSettingReadsExactly() {
        // as the deletion service wrote it before (the written form did not change); no "anonymised" field yet
        String published = "{\"recordId\":\"" + "a".repeat(64) + "\",\"dataset\":\"orders\",\"primaryKey\":{\"id\":7},"
                + "\"columns\":[{\"name\":\"amount\",\"value\":12345678901234567.891,\"writeTimeMicros\":null,"
                + "\"ttlSeconds\":null},{\"name\":\"doc\",\"value\":{\"scale\":1.000,\"big\":-9223372036854775808},"
                + "\"writeTimeMicros\":null,\"ttlSeconds\":null}],\"cutoff\":1700000000000000,\"runId\":\"run-1\","
                + "\"requestId\":null,\"taskId\":\"task-1\",\"batchId\":\"batch-1\","
                + "\"deletedAt\":\"2026-12-01T10:00:00Z\",\"retainedRef\":null}";

        DeletionRecord ingested = INGEST.readValue(published);

        assertThat(ingested.columns())
                .extracting(ColumnValue::value)
                .containsExactly(
                        new BigDecimal("12345678901234567.891"),
                        Map.of("scale", new BigDecimal("1.000"), "big", Long.MIN_VALUE));
        assertThat(ingested.anonymised()).isFalse();
        assertThat(JsonMapper.builder()
                        .build()
                        .readerFor(DeletionRecord.class)
                        .without(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                        .<DeletionRecord>readValue(published)
                        .columns()
                        .get(0)
                        .value())
                .as("what a mapper without the setting made of it: a double, rounded")
                .isEqualTo(1.2345678901234568E16);
    }

    @Test
    void everyServicesMapperReadsNumbersExactly() {
        new ApplicationContextRunner()
                .withConfiguration(
                        AutoConfigurations.of(JacksonAutoConfiguration.class, PlatformJsonAutoConfiguration.class))
                .run(context -> {
                    JsonMapper services = context.getBean(JsonMapper.class);
                    DeletionRecord published = record(
                            Map.of("id", 1L),
                            List.of(ColumnValue.of("amount", new BigDecimal("12345678901234567.891"))));

                    DeletionRecord read =
                            services.readValue(services.writeValueAsString(published), DeletionRecord.class);

                    assertThat(read.columns().get(0).value()).isEqualTo(new BigDecimal("12345678901234567.891"));
                });
    }

    @Test
    void everyServiceGetsTheSettingFromServiceSupport() {
        assertThat(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader())
                        .getCandidates())
                .contains(PlatformJsonAutoConfiguration.class.getName());
    }

    private static DeletionRecord record(Map<String, Object> key, List<ColumnValue> columns) {
        return new DeletionRecord(
                DeletionRecord.recordIdFor("run-1", "orders", key),
                "orders",
                key,
                columns,
                new CutoffTimestamp(1_700_000_000_000_000L),
                RunId.of("run-1"),
                null,
                "task-1",
                "batch-1",
                Instant.parse("2026-12-01T10:00:00Z"),
                null);
    }
}
