package io.erasure.recovery.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Rows refused for a missing parent wait for later passes, and are settled exactly once whatever happens. */
class ParentlessRowsTest {

    private static RecoveryItem item(String id, Outcome outcome) {
        return new RecoveryItem(id, Map.of("item_id", id), outcome, "detail of " + id, Instant.EPOCH, "run-1");
    }

    @Test
    void aRowWaitsUntilItsParentIsBackAndIsThenSettledOnce() {
        ParentlessRows rows = new ParentlessRows();
        assertThat(rows.settle(List.of(item("a", Outcome.RESTORED), item("b", Outcome.PARENT_MISSING))))
                .extracting(RecoveryItem::recordId)
                .containsExactly("a");
        assertThat(rows.startPass()).isTrue();
        assertThat(rows.retries("a")).as("settled in the first pass").isFalse();
        assertThat(rows.retries("b")).isTrue();
        assertThat(rows.retries("b")).as("once").isFalse();
        assertThat(rows.settle(List.of(item("b", Outcome.RESTORED))))
                .extracting(RecoveryItem::recordId)
                .containsExactly("b");
        assertThat(rows.passDone()).isEmpty();
        assertThat(rows.startPass()).as("nothing waits").isFalse();
    }

    @Test
    void whatAPassCannotRestoreIsFailedWithTheReasonAndAVanishedRecordToo() {
        ParentlessRows rows = new ParentlessRows();
        rows.settle(List.of(item("b", Outcome.PARENT_MISSING), item("c", Outcome.PARENT_MISSING)));
        assertThat(rows.startPass()).isTrue();
        assertThat(rows.retries("b")).isTrue();
        assertThat(rows.settle(List.of(item("b", Outcome.PARENT_MISSING)))).isEmpty();
        // "c" is not read again: its record left the log between the passes

        List<RecoveryItem> settled = rows.passDone();

        assertThat(settled).extracting(RecoveryItem::recordId).containsExactlyInAnyOrder("b", "c");
        assertThat(settled).allSatisfy(i -> assertThat(i.outcome()).isEqualTo(Outcome.FAILED));
        assertThat(settled)
                .filteredOn(i -> i.recordId().equals("b"))
                .singleElement()
                .satisfies(i -> assertThat(i.detail())
                        .startsWith("its parent row is not in the store")
                        .contains("detail of b"));
        assertThat(rows.startPass()).isFalse();
    }
}
