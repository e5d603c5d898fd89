package io.erasure.deletion.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.LiveState;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreCapabilities;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BatchEffectTest {

    private static final CutoffTimestamp CUTOFF =
            CutoffTimestamp.fromInstant(Instant.now().minusSeconds(3600));
    private static final List<Map<String, Object>> KEYS =
            List.of(Map.of("id", 1L), Map.of("id", 2L), Map.of("id", 3L), Map.of("id", 4L));

    private final StoreAdapter adapter = mock(StoreAdapter.class);
    private final StoreCalls calls =
            new StoreCalls(1, Duration.ofMillis(1), Duration.ofMillis(1), new SimpleMeterRegistry());
    private final DeletionTask task = DeletionTask.forRun(RunId.random(), ExecutionFixtures.profiles(), KEYS, CUTOFF);

    @Test
    void aDeleteIsCountedAsTheReadBackFindsEachRow() {
        long newer = CUTOFF.micros() + 1;
        long older = CUTOFF.micros() - 1;
        when(adapter.checkLiveState(any(), any()))
                .thenReturn(List.of(
                        LiveState.absent(KEYS.get(0)),
                        LiveState.absent(KEYS.get(1)),
                        new LiveState(KEYS.get(2), true, newer),
                        new LiveState(KEYS.get(3), true, older)));
        DeletePlan plan = plan(DeletePlan.Action.DELETE_ROW);

        BatchEffect.ReadBack readBack =
                BatchEffect.of(task).readBack(task, adapter, calls, plan, new DeleteOutcome(4, 0, 0, 4, 1), KEYS);

        assertThat(readBack.done()).containsExactly(KEYS.get(0), KEYS.get(1));
        assertThat(readBack.keptNewer()).containsExactly(CanonicalKey.render(KEYS.get(2)));
        assertThat(readBack.stillPresent()).isEqualTo(1);
        assertThat(readBack.counts().deleted()).isEqualTo(2);
        assertThat(readBack.counts().skippedNewer()).isEqualTo(1);
        assertThat(readBack.counts().failed()).isEqualTo(1);
    }

    @Test
    void eachTaskEffectGetsItsBatchEffectAndALookupIsNeverExecuted() {
        DeletionTask clearing =
                DeletionTask.forward("req-1", ExecutionFixtures.profiles(), KEYS, CUTOFF, 5, List.of("email"));
        DeletionTask lookup = DeletionTask.forwardLookup(
                "req-1", ExecutionFixtures.profiles(), List.of(Map.of("id", 7L)), CUTOFF, 5, List.of());

        assertThat(BatchEffect.of(clearing)).isInstanceOf(BatchEffect.Clear.class);
        assertThatThrownBy(() -> BatchEffect.of(lookup))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is a lookup by id")
                .hasMessageContaining("never executed");
    }

    @Test
    void aDeleteIsNeverClearedColumnsAndAClearNeedsAStoreThatCan() {
        when(adapter.capabilities()).thenReturn(StoreCapabilities.of(100));
        assertThat(BatchEffect.of(task)).isInstanceOf(BatchEffect.Delete.class);
        assertThat(BatchEffect.of(task).unsupported(task, adapter)).isEmpty();

        BatchEffect clear = new BatchEffect.Clear();
        assertThat(clear.unsupported(task, adapter))
                .get()
                .asString()
                .contains("cannot anonymise (clear columns) of profiles")
                .contains("set its forward policy to DELETE or KEEP_SNAPSHOT");
        when(adapter.capabilities()).thenReturn(StoreCapabilities.of(100, StoreCapabilities.Capability.CLEAR_COLUMNS));
        assertThat(clear.unsupported(task, adapter)).isEmpty();
    }

    @Test
    void anHttpCallbackWithoutACheckEndpointCountsWhatItReportedAndIsNotReadBack() {
        DatasetCopy hook = new DatasetCopy(
                "hook",
                StoreKind.HTTP_CALLBACK,
                "http-main",
                new CopyTarget.HttpCallback(
                        "https://owner.example.com/delete",
                        "POST",
                        Map.of(),
                        "{\"keys\": {keys}}",
                        List.of("id"),
                        null));
        DeletionTask source = DeletionTask.forRun(
                RunId.random(),
                ExecutionFixtures.profiles().toBuilder().copies(List.of(hook)).build(),
                KEYS,
                CUTOFF);
        DeletionTask callback = DeletionTask.forCopy(source, hook, KEYS);

        BatchEffect.ReadBack readBack = BatchEffect.of(callback)
                .readBack(
                        callback,
                        adapter,
                        calls,
                        plan(DeletePlan.Action.DELETE_ROW),
                        new DeleteOutcome(4, 0, 0, 0, 1),
                        KEYS);

        assertThat(readBack.done()).isEqualTo(KEYS);
        assertThat(readBack.counts().deleted()).isEqualTo(4);
        verify(adapter, never()).checkLiveState(any(), any());
    }

    private DeletePlan plan(DeletePlan.Action action) {
        return new DeletePlan(
                new DeleteBatch(task.spec(), task.batchId(0), CUTOFF, KEYS),
                List.of(),
                KEYS.stream().map(k -> new DeletePlan.KeyDecision(k, action)).toList());
    }
}
