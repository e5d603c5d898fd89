package io.erasure.deletion.shard;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.contract.S3Layout;
import io.erasure.model.contract.Topics;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.model.task.SpreadWindow;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

/**
 * Exactly one lane takes a task whose headers name its store, and none can tell one without them; headers that say
 * another store or pacing than the task itself are told apart (the lane they name skips such a copy).
 */
class LaneTest {

    private static final CutoffTimestamp CUTOFF = new CutoffTimestamp(1_700_000_000_000_000L);
    private static final Set<String> CONFIGURED = Set.of("pg-main", "cass-main");
    private static final List<Lane> LANES = List.of(
            Lane.of("pg-main", false, CONFIGURED),
            Lane.of("pg-main", true, CONFIGURED),
            Lane.of("cass-main", false, CONFIGURED),
            Lane.of("cass-main", true, CONFIGURED),
            Lane.fallback(CONFIGURED));

    @Test
    void aTaskOfAConfiguredStoreIsTakenByItsLaneAlone() {
        assertThat(takers(headers("pg-main", false))).containsExactly("deletion-lane-pg-main");
        assertThat(takers(headers("pg-main", true))).containsExactly("deletion-lane-pg-main-paced");
        assertThat(takers(headers("cass-main", true))).containsExactly("deletion-lane-cass-main-paced");
    }

    @Test
    void aTaskOfAStoreWithoutALaneIsTheFallbacksPacedOrNot() {
        assertThat(takers(headers("redis-main", false))).containsExactly("deletion-lane-unconfigured");
        assertThat(takers(headers("redis-main", true))).containsExactly("deletion-lane-unconfigured");
    }

    @Test
    void withoutTheStoreHeaderNoLaneCanTellWithoutReadingTheTask() {
        RecordHeaders onlyPaced = new RecordHeaders();
        onlyPaced.add(Topics.TASK_PACED, "true".getBytes(StandardCharsets.UTF_8));
        for (Lane lane : LANES) {
            assertThat(lane.takes(new RecordHeaders())).as(lane.id()).isEqualTo(Optional.empty());
            assertThat(lane.takes(onlyPaced)).as(lane.id()).isEqualTo(Optional.empty());
        }
    }

    @Test
    void headersThatContradictTheTaskAreToldApart() {
        DeletionTask plain =
                DeletionTask.forRun(RunId.of("run-1"), spec("pg-main", null), List.of(Map.of("id", 1L)), CUTOFF);
        DeletionTask spread = DeletionTask.forRun(
                        RunId.of("run-2"), spec("pg-main", Duration.ofHours(1)), List.of(Map.of("id", 1L)), CUTOFF)
                .withSpread(SpreadWindow.of(Instant.EPOCH, Duration.ofHours(1), 10));

        assertThat(Lane.contradiction(headers("pg-main", false), plain)).isEmpty();
        assertThat(Lane.contradiction(headers("pg-main", true), spread)).isEmpty();
        assertThat(Lane.contradiction(new RecordHeaders(), spread))
                .as("no headers: read to tell, as before")
                .isEmpty();
        assertThat(Lane.contradiction(headers("cass-main", false), plain))
                .get(InstanceOfAssertFactories.STRING)
                .contains("'cass-main'", "'pg-main'");
        assertThat(Lane.contradiction(headers("pg-main", false), spread))
                .as("a spread run's task in the unpaced lane")
                .get(InstanceOfAssertFactories.STRING)
                .contains("(paced)");
        assertThat(Lane.contradiction(headers("pg-main", true), plain)).isPresent();
        assertThat(Lane.contradiction(headers("redis-main", false), plain))
                .as("even where the fallback lane takes both")
                .isPresent();
        // and the lane the contradicting headers name is the only one that reads the copy: it skips it
        assertThat(takers(headers("pg-main", false))).containsExactly("deletion-lane-pg-main");
        assertThat(Lane.of("pg-main", false, CONFIGURED).takes(spread)).isFalse();
    }

    private static DatasetSpec spec(String connection, Duration spreadOver) {
        return DatasetSpec.builder()
                .name("profiles")
                .storeKind(StoreKind.POSTGRES)
                .connectionRef(connection)
                .namespace("app")
                .table("profiles")
                .keyColumns(KeyColumns.partitionOnly("id"))
                .identifierColumn("id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                .backup(S3Layout.defaultBackupLocation("profiles", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.1))
                .spreadOver(spreadOver)
                .ownerTeam("team")
                .build();
    }

    private static List<String> takers(Headers headers) {
        return LANES.stream()
                .filter(lane -> lane.takes(headers).orElseThrow())
                .map(Lane::id)
                .toList();
    }

    private static Headers headers(String store, boolean paced) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(Topics.TASK_STORE, store.getBytes(StandardCharsets.UTF_8));
        if (paced) {
            headers.add(Topics.TASK_PACED, "true".getBytes(StandardCharsets.UTF_8));
        }
        return headers;
    }
}
