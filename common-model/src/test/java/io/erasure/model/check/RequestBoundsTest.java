package io.erasure.model.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.Fixtures;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.event.ForwardDeletionRequested;
import io.erasure.model.identifier.IdentifierSource;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.recovery.RecoveryScope;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;

/**
 * Every list a request can carry is bounded, the bound is named in the refusal, and a list at the bound is
 * accepted; values quoted in a refusal are cut.
 */
class RequestBoundsTest {

    @Test
    void keyColumnsAreAtMost32InAllAndTheRefusalNamesTheBound() {
        assertThatThrownBy(() -> KeyColumns.of(columns("c", 10_000), List.of()))
                .hasMessage("keyColumns.partition has 10000 elements; at most 32 are allowed");
        assertThatThrownBy(() -> KeyColumns.of(columns("p", 20), columns("c", 13)))
                .hasMessage("keyColumns (partition and clustering together) has 33 elements; at most 32 are allowed");

        assertThat(KeyColumns.of(columns("p", 20), columns("c", 12)).primaryKey())
                .hasSize(KeyColumns.MAX_COLUMNS);
    }

    @Test
    void aDatasetHasAtMost32Copies() {
        List<DatasetCopy> copies = IntStream.range(0, 33)
                .mapToObj(i -> new DatasetCopy(
                        "cache-" + i, StoreKind.REDIS, "redis-main", new CopyTarget.KeyTemplate("order:{order_id}")))
                .toList();

        assertThatThrownBy(() -> Fixtures.cassandraOrders().copies(copies).build())
                .hasMessage("copies has 33 elements; at most 32 are allowed");
        assertThat(Fixtures.cassandraOrders()
                        .copies(copies.subList(0, 32))
                        .build()
                        .copies())
                .hasSize(DatasetSpec.MAX_COPIES);
    }

    @Test
    void copyTargetsBoundTheirColumnsHeadersAndPlaceholders() {
        Map<String, String> mapping = new LinkedHashMap<>();
        columns("c", 65).forEach(c -> mapping.put(c, c));
        assertThatThrownBy(() -> new CopyTarget.TableMapping("shop", "orders_copy", mapping))
                .hasMessage("copy.columns has 65 elements; at most 64 are allowed");

        Map<String, String> headers = new LinkedHashMap<>();
        IntStream.range(0, 33).forEach(i -> headers.put("X-H" + i, "v"));
        assertThatThrownBy(() -> new CopyTarget.HttpCallback(
                        "https://owner.example.com/delete",
                        "POST",
                        headers,
                        "{\"keys\": {keys}}",
                        List.of("order_id"),
                        null))
                .hasMessage("copy.httpCallback.headers has 33 elements; at most 32 are allowed");
        assertThatThrownBy(() -> new CopyTarget.HttpCallback(
                        "https://owner.example.com/delete",
                        "POST",
                        Map.of(),
                        "{\"keys\": {keys}}",
                        columns("c", 33),
                        null))
                .hasMessage("copy.httpCallback.keyColumns has 33 elements; at most 32 are allowed");

        String template = "k:"
                + String.join(
                        ":", columns("c", 33).stream().map(c -> "{" + c + "}").toList());
        assertThatThrownBy(() -> new CopyTarget.KeyTemplate(template))
                .hasMessage("copy.keyTemplate placeholders has 33 elements; at most 32 are allowed");
    }

    @Test
    void aRecoveryNamesAtMost1000KeysOfAtMost32ColumnsEach() {
        List<Map<String, Object>> keys = IntStream.range(0, 1_001)
                .mapToObj(i -> Fixtures.key("order_id", i))
                .toList();

        assertThatThrownBy(() -> new RecoveryScope.ByKeys("orders", keys))
                .hasMessageStartingWith("scope.keys has 1001 elements; at most 1000 are allowed")
                .hasMessageContaining("timeWindow or run scope");
        assertThat(new RecoveryScope.ByKeys("orders", keys.subList(0, 1_000)).keys())
                .hasSize(RecoveryScope.ByKeys.MAX_KEYS);

        Map<String, Object> wide = new LinkedHashMap<>();
        columns("c", 33).forEach(c -> wide.put(c, 1));
        assertThatThrownBy(() -> new RecoveryScope.ByKeys("orders", List.of(wide)))
                .hasMessage("scope.keys[0] (columns of one key) has 33 elements; at most 32 are allowed");
        assertThatThrownBy(() -> CanonicalKey.copyOf("key", wide))
                .hasMessage("key (columns of one key) has 33 elements; at most 32 are allowed");
    }

    @Test
    void aForwardRequestHasAtMost10000ChildIdsOf32Sources() {
        Map<String, List<String>> many = Map.of("orders", columns("o", 6_000), "accounts", columns("a", 4_001));
        assertThatThrownBy(() -> forward(many))
                .hasMessageStartingWith("childIds has 10001 identifiers in all; at most 10000 are allowed per request");
        assertThatThrownBy(() -> forward(Map.of("orders", columns("o", 10_001))))
                .hasMessage("childIds.orders has 10001 elements; at most 10000 are allowed");
        Map<String, List<String>> types = new LinkedHashMap<>();
        IntStream.range(0, 33).forEach(i -> types.put("source-" + i, List.of("x")));
        assertThatThrownBy(() -> forward(types)).hasMessage("childIds has 33 elements; at most 32 are allowed");

        assertThat(
                        forward(Map.of("orders", columns("o", 6_000), "accounts", columns("a", 4_000)))
                                .childIds()
                                .values()
                                .stream()
                                .mapToInt(List::size)
                                .sum())
                .isEqualTo(ForwardDeletionRequested.MAX_CHILD_IDS);
    }

    @Test
    void aRefusalQuotesAtMost200CharactersOfAValueAndCountsTheRest() {
        String huge = "x".repeat(5_000_000);

        assertThat(Require.echo(huge)).isEqualTo("'" + "x".repeat(200) + "\u2026(4999800 more)'");
        assertThat(Require.echo("short")).isEqualTo("'short'");
        assertThatThrownBy(() -> StoreKind.parse(huge))
                .message()
                .hasSizeLessThan(400)
                .contains("(4999800 more)");
        assertThatThrownBy(() -> new CopyTarget.KeyTemplate(huge)).message().hasSizeLessThan(400);
    }

    @Test
    void numericAndDurationComponentsSayWhatTheyAcceptForValuesTheirTypeCannotHold() {
        assertThat(allowed(DatasetSpec.class, "priority")).isEqualTo("an integer between 0 and 9");
        assertThat(allowed(DeletionLimits.class, "maxRows")).isEqualTo("an integer between 0 and 9223372036854775807");
        assertThat(allowed(DeletionLimits.class, "maxFraction")).isEqualTo("a number between 0 and 1");
        assertThat(allowed(IdentifierSource.class, "gracePeriod")).startsWith("an ISO-8601 duration");
        assertThat(allowed(DatasetSpec.class, "spreadOver")).contains("PT10S and P1D");
        // the constructors refuse what the words exclude
        assertThatThrownBy(() -> Fixtures.cassandraOrders().priority(10).build())
                .hasMessageContaining("between 0 and 9");
        assertThatThrownBy(() -> new DeletionLimits(1.5, null)).hasMessageContaining("between 0 and 1");
    }

    @Test
    void aSpecAsTheServicesWriteItIsReadBackByAReaderThatRefusesUnknownFields() {
        DatasetSpec spec = Fixtures.cassandraOrders()
                .copies(List.of(new DatasetCopy(
                        "files", StoreKind.S3_OBJECT, "s3-main", new CopyTarget.KeyTemplate("orders/{order_id}/"))))
                .build();
        String json = Fixtures.JSON.writeValueAsString(spec);

        assertThat(json).contains("\"prefix\":true");
        assertThat(Fixtures.JSON
                        .readerFor(DatasetSpec.class)
                        .with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                        .<DatasetSpec>readValue(json))
                .isEqualTo(spec);
    }

    private static ForwardDeletionRequested forward(Map<String, List<String>> childIds) {
        return new ForwardDeletionRequested(
                "customers", "c-1", 1, Instant.parse("2026-01-01T00:00:00Z"), childIds, "tests");
    }

    private static String allowed(Class<? extends Record> type, String component) {
        RecordComponent found = Arrays.stream(type.getRecordComponents())
                .filter(c -> c.getName().equals(component))
                .findFirst()
                .orElseThrow();
        return found.getAnnotation(Allowed.class).value();
    }

    private static List<String> columns(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> prefix + i).toList();
    }
}
