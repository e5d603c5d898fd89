package io.erasure.controlplane.forward;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.controlplane.registry.ForwardAction;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.task.DeletionTask;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class TargetPlanTest {

    /** The identifier is the whole primary key: keyed. */
    private static final DatasetSpec KEYED = table("profiles", "customer_id", "customer_id");
    /** The identifier is another column of a table: lookups. */
    private static final DatasetSpec INDEXED = table("orders", "order_id", "customer_id");
    /** The identifier is another column of a store without tables. */
    private static final DatasetSpec TABLELESS = DatasetSpec.builder()
            .name("exports")
            .storeKind(StoreKind.S3_OBJECT)
            .connectionRef("s3")
            .namespace("exports")
            .table("exports")
            .keyColumns(KeyColumns.partitionOnly("export_id"))
            .identifierColumn("customer_id")
            .identifierSource("customers")
            .conditionalColumn(ConditionalColumn.none())
            .target(new CopyTarget.KeyTemplate("exports/{export_id}.json"))
            .backup(S3Layout.defaultBackupLocation("exports", BackupFormat.JSONL_GZIP))
            .limits(DeletionLimits.fraction(0.5))
            .ownerTeam("exports")
            .build();

    private static final Supplier<Optional<String>> GRANTED = Optional::empty;

    @Test
    void aKeyedTargetOfAnEnabledDeletingGrantedDatasetPublishesItsKeysAndWaitsForEach() {
        TargetPlan plan = TargetPlan.of(KEYED, true, ForwardAction.DELETE, GRANTED);
        assertThat(plan).isEqualTo(new TargetPlan(TargetOutcome.PENDING, null, false));
        assertThat(plan.publishes()).isTrue();
        assertThat(plan.blocking()).isTrue();
        assertThat(plan.recordedAsLookup()).isFalse();
        assertThat(plan.expectedKeys(3)).isEqualTo(3);
        assertThat(plan.lookupTasks(2)).isZero();
        assertThat(TargetPlan.of(KEYED, true, ForwardAction.ANONYMISE, GRANTED).outcome())
                .isEqualTo(TargetOutcome.PENDING);
    }

    @Test
    void anIndexedTargetPublishesLookupsAndWaitsForTheKeysTheyReport() {
        TargetPlan plan = TargetPlan.of(INDEXED, true, ForwardAction.DELETE, GRANTED);
        assertThat(plan).isEqualTo(new TargetPlan(TargetOutcome.PENDING, null, true));
        assertThat(plan.recordedAsLookup()).isTrue();
        assertThat(plan.expectedKeys(3)).isZero();
        assertThat(plan.lookupTasks(2)).isEqualTo(2);
    }

    @Test
    void aTablelessTargetAddressedByAnotherColumnIsLeftToTheAuditWhateverElse() {
        Supplier<Optional<String>> notAsked = () -> {
            throw new AssertionError("the grant is not asked of a target that publishes nothing");
        };
        assertThat(TargetPlan.lookup(TABLELESS)).isFalse();
        TargetPlan plan = TargetPlan.of(TABLELESS, false, ForwardAction.KEEP_SNAPSHOT, notAsked);
        assertThat(plan)
                .isEqualTo(new TargetPlan(
                        TargetOutcome.LEFT_TO_AUDIT,
                        "left to the nightly audit: identifier not in the key of a store without tables",
                        false));
        assertThat(plan.publishes()).isFalse();
        assertThat(plan.blocking()).isFalse();
        assertThat(plan.lookupTasks(0)).isZero();
    }

    @Test
    void aDisabledDatasetIsLeftToTheAuditAndAKeptSnapshotIsRecordedWithoutAskingForTheGrant() {
        Supplier<Optional<String>> notAsked = () -> {
            throw new AssertionError("the grant is not asked of a target that publishes nothing");
        };
        assertThat(TargetPlan.of(INDEXED, false, ForwardAction.DELETE, notAsked))
                .isEqualTo(new TargetPlan(
                        TargetOutcome.LEFT_TO_AUDIT, "left to the nightly audit: dataset disabled", true));
        TargetPlan kept = TargetPlan.of(KEYED, true, ForwardAction.KEEP_SNAPSHOT, notAsked);
        assertThat(kept).isEqualTo(new TargetPlan(TargetOutcome.SNAPSHOT_KEPT, "snapshot kept (legal record)", false));
        assertThat(kept.blocking()).isFalse();
        assertThat(kept.recordedAsLookup()).isFalse();
    }

    @Test
    void aDatasetWithoutItsGrantIsHeldBlockingWithTheRefusalAndPublishesNothing() {
        TargetPlan plan =
                TargetPlan.of(INDEXED, true, ForwardAction.DELETE, () -> Optional.of("team x has no grant for y"));
        assertThat(plan)
                .isEqualTo(new TargetPlan(TargetOutcome.NOT_GRANTED, "not published: team x has no grant for y", true));
        assertThat(plan.publishes()).isFalse();
        assertThat(plan.blocking()).isTrue();
        assertThat(plan.recordedAsLookup())
                .as("held, it still waits for its lookups once published")
                .isTrue();
    }

    @Test
    void aHeldTargetIsDecidedAgainAsItWasRecorded() {
        assertThat(TargetPlan.of(KEYED, true, true, ForwardAction.DELETE, GRANTED))
                .as("recorded as a lookup target: stays one")
                .isEqualTo(new TargetPlan(TargetOutcome.PENDING, null, true));
        assertThat(TargetPlan.of(INDEXED, false, true, ForwardAction.DELETE, GRANTED))
                .as("not addressable and not recorded as a lookup")
                .isEqualTo(new TargetPlan(TargetOutcome.LEFT_TO_AUDIT, TargetPlan.NOT_ADDRESSABLE, false));
    }

    @Test
    void numericIdsAreNumbersUnlessTheyWouldReadAsAnotherId() {
        assertThat(TargetPlan.keyOf(KEYED, "42")).isEqualTo(Map.of("customer_id", 42L));
        assertThat(TargetPlan.keyOf(KEYED, "007")).isEqualTo(Map.of("customer_id", "007"));
        assertThat(TargetPlan.keyOf(KEYED, "+7")).isEqualTo(Map.of("customer_id", "+7"));
        assertThat(TargetPlan.keyOf(KEYED, "c-1")).isEqualTo(Map.of("customer_id", "c-1"));
    }

    @Test
    void tasksCarryAThousandKeysEachAsForwardTasksOrLookups() {
        List<Map<String, Object>> keys = IntStream.range(0, 1_001)
                .mapToObj(i -> TargetPlan.keyOf(KEYED, Integer.toString(i)))
                .toList();
        CutoffTimestamp cutoff = CutoffTimestamp.ofMicros(1_000);
        List<DeletionTask> forward = TargetPlan.tasks("req-1", KEYED, keys, cutoff, false, List.of());
        assertThat(forward).hasSize(2);
        assertThat(forward.get(0).keys()).hasSize(1_000);
        assertThat(forward.get(1).keys()).hasSize(1);
        assertThat(TargetPlan.tasks("req-1", KEYED, keys, cutoff, false, List.of()))
                .as("built again, the same tasks")
                .isEqualTo(forward);
        List<DeletionTask> lookups = TargetPlan.tasks("req-1", INDEXED, keys, cutoff, true, List.of());
        assertThat(lookups).hasSize(2);
        assertThat(forward.get(0).lookupColumn()).isNull();
        assertThat(lookups.get(0).lookupColumn()).isEqualTo("customer_id");
    }

    @Test
    void theKeySetIsTheSameWhateverTheKeysOrder() {
        Map<String, Object> a = TargetPlan.keyOf(KEYED, "1");
        Map<String, Object> b = TargetPlan.keyOf(KEYED, "2");
        assertThat(TargetPlan.keySet(List.of(a, b)))
                .isEqualTo(TargetPlan.keySet(List.of(b, a)))
                .isNotEqualTo(TargetPlan.keySet(List.of(a)))
                .matches("[0-9a-f]{64}");
    }

    private static DatasetSpec table(String name, String key, String identifier) {
        return DatasetSpec.builder()
                .name(name)
                .storeKind(StoreKind.POSTGRES)
                .connectionRef("pg-main")
                .namespace("shop")
                .table(name)
                .keyColumns(KeyColumns.partitionOnly(key))
                .identifierColumn(identifier)
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.none())
                .backup(S3Layout.defaultBackupLocation(name, BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.1))
                .ownerTeam("shop")
                .build();
    }
}
