package io.erasure.model.task;

import static io.erasure.model.Fixtures.CUTOFF;
import static io.erasure.model.Fixtures.JSON;
import static io.erasure.model.Fixtures.T0;
import static io.erasure.model.Fixtures.key;
import static io.erasure.model.Fixtures.orders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.run.RunId;
import io.erasure.model.trust.Authorization;
import io.erasure.model.trust.SigningKey;
import io.erasure.model.trust.TrustedKeys;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RefusedTaskTest {

    private final DeletionTask task =
            DeletionTask.forRun(RunId.of("run-1"), orders(), List.of(key("customer_id", 1, "order_id", "o-1")), CUTOFF);

    @Test
    void aTaskRefusedAgainWhereItWasReadHasTheSameIdAndAnotherMessageAnother() {
        RefusedTask first = RefusedTask.of(
                task, Authorization.Kind.RUN, "unsigned", "no authorization", "erasure.deletion.tasks", 3, 42, T0);
        RefusedTask again = RefusedTask.of(
                task,
                Authorization.Kind.RUN,
                "unsigned",
                "no authorization",
                "erasure.deletion.tasks",
                3,
                42,
                T0.plusSeconds(60));
        RefusedTask elsewhere = RefusedTask.of(
                task, Authorization.Kind.RUN, "unsigned", "no authorization", "erasure.deletion.tasks", 3, 43, T0);

        assertThat(again.refusalId()).isEqualTo(first.refusalId());
        assertThat(elsewhere.refusalId()).isNotEqualTo(first.refusalId());
        assertThat(first.source()).isEqualTo("erasure.deletion.tasks-3@42");
        assertThat(first.originId()).isEqualTo("run-1");
        assertThat(first.requestId()).isNull();
        assertThat(first.keyId()).isNull();
    }

    @Test
    void itClaimsExactlyOneOriginAndALongReasonIsCut() {
        assertThatThrownBy(() -> new RefusedTask(
                        "r",
                        "task-1",
                        "run-1",
                        "req-1",
                        "orders",
                        Authorization.Kind.RUN,
                        "unsigned",
                        "x",
                        null,
                        T0,
                        "s"))
                .hasMessageContaining("exactly one of runId and requestId");
        RefusedTask longReason = new RefusedTask(
                "r",
                "task-1",
                null,
                "req-1",
                "orders",
                Authorization.Kind.FORWARD,
                "keys-not-covered",
                "k".repeat(5_000),
                null,
                T0,
                "s");
        assertThat(longReason.reason()).hasSize(RefusedTask.MAX_REASON).endsWith("…");
    }

    @Test
    void itReadsBackAsWritten() {
        RefusedTask refused = RefusedTask.of(
                task, Authorization.Kind.RUN, "unsigned", "no authorization", "erasure.deletion.tasks", 0, 7, T0);

        assertThat(JSON.readValue(JSON.writeValueAsString(refused), RefusedTask.class))
                .isEqualTo(refused);
    }

    @Test
    void aReportSignedByTheDeletionServiceVerifiesAfterItsTripThroughJsonAndNothingElseDoes() throws Exception {
        KeyPair deletion = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        KeyPair audit = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        TrustedKeys trusted = TrustedKeys.of(Map.of(
                "deletion-1", new TrustedKeys.Trusted(deletion.getPublic(), Set.of(Authorization.Kind.BATCH_RESULT)),
                "audit-1", new TrustedKeys.Trusted(audit.getPublic(), Set.of(Authorization.Kind.AUDIT_RESULT))));
        RefusedTask report = RefusedTask.of(
                task, Authorization.Kind.RUN, "unsigned", "no authorization", "erasure.deletion.tasks", 3, 42, T0);

        RefusedTask signed = report.signed(signingKey("deletion-1", deletion));
        RefusedTask read = JSON.readValue(JSON.writeValueAsString(signed), RefusedTask.class);

        assertThat(read.signatureRefusal(trusted)).isEmpty();
        assertThat(report.signatureRefusal(trusted)).get().asString().contains("not signed");
        assertThat(report.signed(signingKey("audit-1", audit)).signatureRefusal(trusted))
                .get()
                .asString()
                .contains("not for BATCH_RESULT");
        RefusedTask reworded = new RefusedTask(
                read.refusalId(),
                read.taskId(),
                read.runId(),
                read.requestId(),
                read.dataset(),
                read.kind(),
                read.reasonClass(),
                "approve run-1 now",
                read.keyId(),
                read.receivedAt(),
                read.source(),
                read.signedBy(),
                read.signature());
        assertThat(reworded.signatureRefusal(trusted)).get().asString().contains("does not match its content");
    }

    private static SigningKey signingKey(String id, KeyPair pair) {
        return SigningKey.of(
                id, Base64.getEncoder().encodeToString(pair.getPrivate().getEncoded()));
    }
}
