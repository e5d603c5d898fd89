package io.erasure.deletionlog.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.deletionlog.DeletionLogTestSupport;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** What the log gives back for recovery holds every digit of the values the deletion service published. */
class ExactValuesIT extends DeletionLogTestSupport {

    @Test
    void decimalsAndExtremeIntegersComeBackFromTheLogWithEveryDigit() {
        String dataset = unique("exact");
        String run = unique("run");
        Instant deletedAt = Instant.now().truncatedTo(ChronoUnit.MILLIS).minus(1, ChronoUnit.HOURS);
        Map<String, Object> key = Map.of("id", 1L);
        DeletionRecord record = new DeletionRecord(
                DeletionRecord.recordIdFor(run, dataset, key),
                dataset,
                key,
                List.of(
                        ColumnValue.of("amount", new BigDecimal("12345678901234567.891")),
                        ColumnValue.of("smallest", Long.MIN_VALUE),
                        ColumnValue.of("huge", new BigInteger("123456789012345678901234567890")),
                        ColumnValue.of(
                                "doc", Map.of("scale", new BigDecimal("1.000"), "tiny", new BigDecimal("1E-40")))),
                CutoffTimestamp.fromInstant(deletedAt.minusSeconds(30)),
                RunId.of(run),
                null,
                "task-1",
                "batch-1",
                deletedAt,
                null);

        publish(List.of(record));
        JsonNode logged = await(
                        () -> get("recovery", "/api/log/{dataset}/keys?key={key}", dataset, "{\"id\":1}"),
                        history -> history.get("records").size() == 1)
                .get("records")
                .get(0);

        assertThat(value(logged, "amount").decimalValue()).isEqualTo(new BigDecimal("12345678901234567.891"));
        assertThat(value(logged, "smallest").longValue()).isEqualTo(Long.MIN_VALUE);
        assertThat(value(logged, "huge").bigIntegerValue()).isEqualTo(new BigInteger("123456789012345678901234567890"));
        assertThat(value(logged, "doc").get("scale").decimalValue()).isEqualTo(new BigDecimal("1.000"));
        assertThat(value(logged, "doc").get("tiny").decimalValue()).isEqualTo(new BigDecimal("1E-40"));
    }

    private static JsonNode value(JsonNode record, String column) {
        return StreamSupport.stream(record.get("columns").spliterator(), false)
                .filter(c -> c.get("name").asString().equals(column))
                .findFirst()
                .orElseThrow()
                .get("value");
    }
}
