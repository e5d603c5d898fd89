package io.erasure.store.s3.objects;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.cutoff.CutoffTimestamp;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class StoredObjectTest {

    @Test
    void anObjectMayHaveBeenWrittenAsLateAsTheEndOfItsLastModifiedSecond() {
        StoredObject object = new StoredObject("k", "\"e\"", Instant.parse("2024-01-31T02:00:07Z"), 1);

        assertThat(object.lastWriteMicros())
                .isEqualTo(CutoffTimestamp.toMicros(Instant.parse("2024-01-31T02:00:07.999999Z")));
    }

    @Test
    void aCutoffWithinTheSameSecondNeverLetsTheObjectBeDeleted() {
        StoredObject object = new StoredObject("k", "\"e\"", Instant.parse("2024-01-31T02:00:07Z"), 1);

        assertThat(CutoffTimestamp.fromInstant(Instant.parse("2024-01-31T02:00:07.5Z"))
                        .isWrittenAfter(object.lastWriteMicros()))
                .isTrue();
        assertThat(CutoffTimestamp.fromInstant(Instant.parse("2024-01-31T02:00:07.999999Z"))
                        .isWrittenAfter(object.lastWriteMicros()))
                .isFalse();
        assertThat(CutoffTimestamp.fromInstant(Instant.parse("2024-01-31T02:00:08Z"))
                        .isWrittenAfter(object.lastWriteMicros()))
                .isFalse();
    }
}
