package io.erasure.model.cutoff;

import static io.erasure.model.Fixtures.JSON;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CutoffTimestampTest {

    private static final Instant AT = Instant.parse("2024-01-31T02:00:00.123456789Z");

    @Test
    void convertsInstantsToMicrosTruncating() {
        CutoffTimestamp cutoff = CutoffTimestamp.fromInstant(AT);
        assertThat(cutoff.micros()).isEqualTo(1_706_666_400_123_456L);
        assertThat(cutoff.toInstant()).isEqualTo(Instant.parse("2024-01-31T02:00:00.123456Z"));
        assertThat(CutoffTimestamp.fromMicros(CutoffTimestamp.toMicros(AT))).isEqualTo(cutoff.toInstant());
    }

    @Test
    void writtenAfterIsStrictlyLater() {
        CutoffTimestamp cutoff = CutoffTimestamp.ofMicros(1_000_000L);
        assertThat(cutoff.isWrittenAfter(1_000_001L)).isTrue();
        assertThat(cutoff.isWrittenAfter(1_000_000L))
                .as("a write at the cut-off is covered by the backup")
                .isFalse();
        assertThat(cutoff.isWrittenAfter(999_999L)).isFalse();
        assertThat(cutoff.isWrittenAfter((Long) null)).isFalse();
        assertThat(cutoff.isWrittenAfter(Instant.ofEpochSecond(1, 1_000))).isTrue();
    }

    @Test
    void backupCutoffSubtractsTheSkewMargin() {
        Instant start = Instant.parse("2024-01-31T02:00:00Z");
        CutoffTimestamp cutoff = CutoffTimestamp.fromBackupStart(start, CutoffTimestamp.DEFAULT_CLOCK_SKEW_MARGIN);
        assertThat(cutoff.toInstant()).isEqualTo(Instant.parse("2024-01-31T01:59:55Z"));
        assertThatThrownBy(() -> CutoffTimestamp.fromBackupStart(start, Duration.ofSeconds(-1)))
                .hasMessageStartingWith("skewMargin must be >= 0");
    }

    @Test
    void restoresWriteOneMicrosecondAfterTheDelete() {
        assertThat(CutoffTimestamp.ofMicros(5_000L).restoreWriteTimeMicros()).isEqualTo(5_001L);
    }

    @Test
    void mustBePositive() {
        assertThatThrownBy(() -> CutoffTimestamp.ofMicros(0)).hasMessageStartingWith("cutoff micros must be > 0");
    }

    @Test
    void serializesAsAPlainNumber() {
        CutoffTimestamp cutoff = CutoffTimestamp.ofMicros(1_706_666_400_123_456L);
        assertThat(JSON.writeValueAsString(cutoff)).isEqualTo("1706666400123456");
        assertThat(JSON.readValue("1706666400123456", CutoffTimestamp.class)).isEqualTo(cutoff);
    }
}
