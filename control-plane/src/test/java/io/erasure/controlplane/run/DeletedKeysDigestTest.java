package io.erasure.controlplane.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.key.DeterministicId;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeletedKeysDigestTest {

    private static final String A = "a".repeat(64);
    private static final String B = "b".repeat(64);

    @Test
    void isTheSha256OfTheSortedBatchDigestsWithTheirNumber() {
        DeletedKeysDigest digest = DeletedKeysDigest.of(List.of(B, A));
        assertThat(digest.batches()).isEqualTo(2);
        assertThat(digest.sha256())
                .isEqualTo(DeterministicId.sha256Hex("deleted-keys-digests-v1", "2", A, B))
                .isEqualTo(DeletedKeysDigest.of(List.of(A, B)).sha256());
        assertThat(DeletedKeysDigest.of(List.of(A)).sha256()).isNotEqualTo(digest.sha256());
    }

    @Test
    void noDeletedKeysHaveNoDigest() {
        assertThat(DeletedKeysDigest.of(List.of()))
                .isEqualTo(new DeletedKeysDigest("deleted-keys-digests-v1", 0, null));
    }
}
