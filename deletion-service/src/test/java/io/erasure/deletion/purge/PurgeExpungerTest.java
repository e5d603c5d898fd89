package io.erasure.deletion.purge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;
import static org.mockito.Mockito.withSettings;

import io.erasure.deletion.purge.DatasetDeletions.LastDelete;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.PurgeTracking;
import io.erasure.store.spi.StoreAdapter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class PurgeExpungerTest {

    private static final Instant NOW = Instant.parse("2026-12-03T10:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    private final List<LastDelete> deletions = new ArrayList<>();
    private final List<OnDisk> lines = new ArrayList<>();
    /** Per store, its utilization as the throttle tells it; absent: unknown. */
    private final Map<String, Double> utilizations = new HashMap<>();
    /** Per store, how often the expunger asked for its utilization. */
    private final Map<String, Integer> asked = new HashMap<>();

    @Test
    void dataPastItsLeaseAndStillOnDiskIsExpungedWhileTheStoreHasHeadroom() {
        StoreAdapter search = store("search-main", 0.2);
        due("profiles", "search-main", NOW.minusSeconds(60));

        PurgeExpunger expunger = expunger(Map.of("search-main", search));
        List<String> started = expunger.expungeDue();

        assertThat(started).singleElement().asString().startsWith("profiles: merge profiles");
        verify((PurgeTracking) search).expungeDeleted(deletions.get(0).spec());
        assertThat(expunger.expungeDue())
                .as("a live index always holds deleted documents: no new delete, no new merge")
                .isEmpty();
        deletions.set(
                0,
                new LastDelete(
                        deletions.get(0).spec(), deletions.get(0).deletedAt().plusSeconds(1)));
        assertThat(expunger.expungeDue()).as("after a new delete").hasSize(1);
    }

    @Test
    void nothingIsAskedBeforeTheLeaseEndsAfterAPurgeOrOnAnUnknownAnswer() {
        StoreAdapter search = store("search-main", 0.0);
        due("early", "search-main", NOW.plusSeconds(60));
        due("purged", "search-main", NOW.minusSeconds(60));
        lines.set(1, line("purged", NOW.minusSeconds(60), false));
        deletions.add(new LastDelete(spec("unknown", "search-main"), NOW.minus(Duration.ofDays(2))));
        lines.add(OnDisk.failed("unknown", "docs", NOW.minus(Duration.ofDays(2)), "node away", NOW));

        assertThat(expunger(Map.of("search-main", search)).expungeDue()).isEmpty();
        verify((PurgeTracking) search, never()).expungeDeleted(any());
    }

    @Test
    void aBusyStoreIsLeftToPurgeOnItsOwnAndItsLoadIsReadOncePerPass() {
        StoreAdapter busy = store("search-main", 0.35);
        due("profiles", "search-main", NOW.minusSeconds(60));
        due("activity", "search-main", NOW.minusSeconds(60));

        assertThat(expunger(Map.of("search-main", busy)).expungeDue()).isEmpty();
        verify((PurgeTracking) busy, never()).expungeDeleted(any());
        assertThat(asked).containsExactly(Map.entry("search-main", 1));
    }

    @Test
    void oneMergeIsStartedPerStorePerPass() {
        StoreAdapter search = store("search-main", 0.1);
        StoreAdapter other = store("search-orders", 0.1);
        due("profiles", "search-main", NOW.minusSeconds(60));
        due("activity", "search-main", NOW.minusSeconds(60));
        due("orders", "search-orders", NOW.minusSeconds(60));

        List<String> started =
                expunger(Map.of("search-main", search, "search-orders", other)).expungeDue();

        assertThat(started).hasSize(2);
        assertThat(started.get(0)).startsWith("profiles:");
        assertThat(started.get(1)).startsWith("orders:");
    }

    @Test
    void aStoreThatPurgesOnItsOwnIsNotAsked() {
        StoreAdapter plain = mock(StoreAdapter.class);
        due("profiles", "pg-main", NOW.minusSeconds(60));

        assertThat(expunger(Map.of("pg-main", plain)).expungeDue()).isEmpty();
        assertThat(asked).isEmpty();
    }

    @Test
    void aStoreWhoseLoadCannotBeToldIsLeftToPurgeOnItsOwn() {
        StoreAdapter search = store("search-main", 0.1);
        utilizations.remove("search-main"); // the throttle's last step could not read it
        due("profiles", "search-main", NOW.minusSeconds(60));

        assertThat(expunger(Map.of("search-main", search)).expungeDue()).isEmpty();
        verify((PurgeTracking) search, never()).expungeDeleted(any());
    }

    private PurgeExpunger expunger(Map<String, StoreAdapter> stores) {
        // the default headroom of 0.3 aims at 70 %: half of it is 35 %
        return new PurgeExpunger(
                () -> deletions,
                () -> lines,
                stores::get,
                store -> {
                    asked.merge(store, 1, Integer::sum);
                    Double utilization = utilizations.get(store);
                    return utilization == null ? OptionalDouble.empty() : OptionalDouble.of(utilization);
                },
                0.35,
                CLOCK);
    }

    private void due(String dataset, String store, Instant purgeableAt) {
        deletions.add(new LastDelete(spec(dataset, store), purgeableAt.minus(Duration.ofHours(12))));
        lines.add(line(dataset, purgeableAt, true));
    }

    private static OnDisk line(String dataset, Instant purgeableAt, boolean stillOnDisk) {
        return new OnDisk(
                dataset,
                dataset,
                purgeableAt.minus(Duration.ofHours(12)),
                43_200L,
                purgeableAt,
                stillOnDisk,
                stillOnDisk ? 4L : 0L,
                "",
                null,
                NOW);
    }

    private StoreAdapter store(String name, double utilization) {
        utilizations.put(name, utilization);
        StoreAdapter adapter = mock(StoreAdapter.class, withSettings().extraInterfaces(PurgeTracking.class));
        when(((PurgeTracking) adapter).expungeDeleted(any()))
                .thenAnswer(call -> Optional.of(
                        "merge " + call.getArgument(0, DatasetSpec.class).table()));
        return adapter;
    }

    private static DatasetSpec spec(String name, String store) {
        return DatasetSpec.builder()
                .name(name)
                .storeKind(StoreKind.OPENSEARCH)
                .connectionRef(store)
                .namespace("search")
                .table(name)
                .keyColumns(KeyColumns.partitionOnly("member_id"))
                .identifierColumn("member_id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.none())
                .backup(S3Layout.defaultBackupLocation(name, BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(1.0))
                .ownerTeam("search")
                .target(new CopyTarget.SearchIndex(name, "m-{member_id}", null, null))
                .build();
    }
}
