package io.erasure.deletion.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.deletion.throttle.SpreadPacer.Outcome;
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
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The pacing arithmetic on a controlled clock: sleeping moves the clock, nothing really waits. */
class SpreadPacerTest {

    private static final Instant START = Instant.parse("2026-12-01T02:00:00Z");
    private static final Duration WINDOW = Duration.ofSeconds(20);
    private static final Duration POLL = Duration.ofMillis(100);

    private final ManualClock clock = new ManualClock(START);
    private final AtomicLong done = new AtomicLong();
    private final ShardOwnership ownership = new ShardOwnership();
    private final List<Duration> naps = new ArrayList<>();
    private final SpreadPacer pacer = new SpreadPacer((run, dataset) -> done.get(), ownership, clock, nap -> {
        naps.add(nap);
        clock.advance(nap);
    });
    private final DatasetSpec spec = spec(WINDOW);
    private final RunId run = RunId.of("run-spread");

    @Test
    void aBatchWaitsItsShareOfTheRemainingWindowForTheRemainingKeys() {
        // 300 keys over 20 s, a batch of 100: 100 / (300 / 20 s) = 6.67 s
        assertThat(SpreadPacer.slotLength(WINDOW, 100, 300, 1.0)).isEqualTo(Duration.ofNanos(6_666_666_666L));
        // behind schedule (more keys left than the time left would take at the start's pace): shorter waits
        assertThat(SpreadPacer.slotLength(Duration.ofSeconds(10), 100, 300, 1.0))
                .isEqualTo(Duration.ofNanos(3_333_333_333L));
        // a replica owning half of the task partitions takes half of the pace
        assertThat(SpreadPacer.slotLength(WINDOW, 100, 300, 0.5)).isEqualTo(Duration.ofNanos(13_333_333_333L));
        // never longer than what is left of the window, however few keys are counted as left
        assertThat(SpreadPacer.slotLength(WINDOW, 100, 0, 1.0)).isEqualTo(WINDOW);
        assertThat(SpreadPacer.slotLength(WINDOW, 100, 150, 0.25)).isEqualTo(WINDOW);
        // past the window: no pace, the throttle alone
        assertThat(SpreadPacer.slotLength(Duration.ZERO, 100, 300, 1.0)).isZero();
        assertThat(SpreadPacer.slotLength(Duration.ofSeconds(-3), 100, 300, 1.0))
                .isZero();
    }

    @Test
    void aRunOnScheduleWaitsTheSameBeforeEachBatchAndItsLastBatchIsDueAtTheWindowsEnd() {
        DeletionTask task = task(300);
        List<Instant> goes = new ArrayList<>();
        for (int batch = 0; batch < 3; batch++) {
            assertThat(pacer.await(task, "b" + batch, 100, () -> false, POLL, Instant.MAX))
                    .isEqualTo(Outcome.GO);
            goes.add(clock.instant());
            done.addAndGet(100);
        }

        assertThat(goes)
                .containsExactly(START.plusNanos(6_666_666_666L), START.plusNanos(13_333_333_333L), START.plus(WINDOW));
        assertThat(naps).allSatisfy(nap -> assertThat(nap).isLessThanOrEqualTo(POLL));
    }

    @Test
    void aSlowBatchIsMadeUpByShorterWaitsAndTheWindowIsKept() {
        DeletionTask task = task(300);
        pacer.await(task, "b0", 100, () -> false, POLL, Instant.MAX);
        done.addAndGet(100);
        clock.advance(Duration.ofSeconds(5)); // the batch itself took 5 s: 11.67 s into the window

        pacer.await(task, "b1", 100, () -> false, POLL, Instant.MAX);
        assertThat(clock.instant())
                .as("half of the 8.33 s left, for half of the keys left")
                .isEqualTo(START.plusNanos(11_666_666_666L + 4_166_666_667L));
        done.addAndGet(100);
        pacer.await(task, "b2", 100, () -> false, POLL, Instant.MAX);
        assertThat(clock.instant()).isEqualTo(START.plus(WINDOW));
    }

    @Test
    void shardThreadsOfOneReplicaTakeConsecutiveSlotsOfTheRunsPace() {
        DeletionTask task = task(400);

        SpreadPacer.Slot first = pacer.reserve(task, "b0", 100);
        SpreadPacer.Slot second = pacer.reserve(task, "b1", 100); // another thread, while the first batch still waits

        assertThat(first.due()).isEqualTo(START.plusSeconds(5));
        assertThat(second.from()).isEqualTo(first.due());
        assertThat(second.due())
                .as("the replica's pace is shared by its threads, not taken by each")
                .isEqualTo(START.plusSeconds(10));
        assertThat(pacer.reserve(task(400, RunId.of("other-run")), "b0", 100).due())
                .as("another run has a timeline of its own")
                .isEqualTo(START.plusSeconds(5));
    }

    @Test
    void aReplicaPacesAtItsShareOfTheTaskPartitions() {
        ownership.totalPartitions(8);
        ownership.onPartitionsAssigned(IntStream.range(0, 4)
                .mapToObj(p -> new TopicPartition(Topics.DELETION_TASKS, p))
                .toList());

        assertThat(pacer.reserve(task(400), "b0", 100).due())
                .as("half the partitions: half the fleet's pace")
                .isEqualTo(START.plusSeconds(10));
    }

    @Test
    void aRunPastItsWindowIsNotPacedAndNeitherAreTasksWithoutAWindow() {
        DeletionTask task = task(300);
        clock.advance(WINDOW);

        assertThat(pacer.await(task, "b0", 100, () -> false, POLL, Instant.MAX)).isEqualTo(Outcome.GO);
        DeletionTask unpaced = DeletionTask.forRun(run, spec, keys(100), CutoffTimestamp.fromInstant(START));
        assertThat(pacer.await(unpaced, "b0", 100, () -> false, POLL, Instant.MAX))
                .isEqualTo(Outcome.GO);
        assertThat(clock.instant()).isEqualTo(START.plus(WINDOW));
        assertThat(naps).isEmpty();
    }

    @Test
    void aKillSwitchEndsTheWaitAtOnceAndFreesTheSlot() {
        DeletionTask task = task(300);
        Instant switchedAt = START.plusSeconds(2);

        Outcome outcome = pacer.await(task, "b0", 100, () -> !clock.instant().isBefore(switchedAt), POLL, Instant.MAX);

        assertThat(outcome).isEqualTo(Outcome.STOPPED);
        assertThat(clock.instant()).as("within one poll of the switch").isBetween(switchedAt, switchedAt.plus(POLL));
        assertThat(pacer.reserve(task, "b0", 100).from())
                .as("the slot given up is free again: the batch's pace starts" + " anew from now")
                .isEqualTo(clock.instant());
    }

    @Test
    void aWaitNeverOutlastsThePollsBudgetAndTheSlotIsKeptForTheRedelivery() {
        DeletionTask task = task(300, spec(Duration.ofHours(6)), Duration.ofHours(6));
        Instant handBackAt = START.plus(Duration.ofMinutes(10)); // the batch is due after 2 h

        assertThat(pacer.await(task, "b0", 100, () -> false, Duration.ofSeconds(1), handBackAt))
                .isEqualTo(Outcome.HAND_BACK);
        assertThat(clock.instant()).isEqualTo(handBackAt);

        // delivered again, the batch is due when it was, neither later (a wait computed anew from now) nor a slot later
        assertThat(pacer.reserve(task, "b0", 100).due()).isEqualTo(START.plus(Duration.ofHours(2)));
        assertThat(pacer.reserve(task, "b1", 100).from())
                .as("the next batch's slot follows it")
                .isEqualTo(START.plus(Duration.ofHours(2)));
    }

    private DeletionTask task(long plannedKeys) {
        return task(plannedKeys, run);
    }

    private DeletionTask task(long plannedKeys, RunId runId) {
        return DeletionTask.forRun(runId, spec, keys(100), CutoffTimestamp.fromInstant(START))
                .withSpread(SpreadWindow.of(START, WINDOW, plannedKeys));
    }

    private DeletionTask task(long plannedKeys, DatasetSpec spread, Duration window) {
        return DeletionTask.forRun(run, spread, keys(100), CutoffTimestamp.fromInstant(START))
                .withSpread(SpreadWindow.of(START, window, plannedKeys));
    }

    private static List<Map<String, Object>> keys(int count) {
        return IntStream.range(0, count)
                .mapToObj(i -> Map.<String, Object>of("id", (long) i))
                .toList();
    }

    private static DatasetSpec spec(Duration spreadOver) {
        return DatasetSpec.builder()
                .name("spread-orders")
                .storeKind(StoreKind.POSTGRES)
                .connectionRef("pg-main")
                .namespace("shop")
                .table("orders")
                .keyColumns(KeyColumns.partitionOnly("id"))
                .identifierColumn("id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                .backup(S3Layout.defaultBackupLocation("spread-orders", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(1.0))
                .ownerTeam("demo-team")
                .spreadOver(spreadOver)
                .build();
    }

    private static final class ManualClock extends Clock {
        private Instant now;

        ManualClock(Instant now) {
            this.now = now;
        }

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
