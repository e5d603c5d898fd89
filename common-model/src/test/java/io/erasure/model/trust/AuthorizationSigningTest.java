package io.erasure.model.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.event.ControlSignal;
import io.erasure.model.run.RunId;
import io.erasure.model.trust.Authorization.Kind;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Ed25519 signatures of authorizations, what a trusted key is granted, and the final-set digests they cover. */
class AuthorizationSigningTest {

    // test-only pairs: one the verifier trusts, one it does not
    static final String PRIVATE = "MC4CAQAwBQYDK2VwBCIEIFP9YJnCLRIGnHdmcZEWO06/uijq2IzHGEgltoendJem";
    static final String PUBLIC = "MCowBQYDK2VwAyEAsWOAPnH82V2jzG5TuiHw8fXB9vlmYSp/EnWP/rP3LlM=";
    static final String OTHER_PRIVATE = "MC4CAQAwBQYDK2VwBCIEIEUHjKJq8tv3PnGRRnfIRcoUP/qVi14iPX4vPt+cJmxT";

    private final SigningKey controlPlane = SigningKey.of("cp-1", PRIVATE);
    private final TrustedKeys trusted = TrustedKeys.of(Map.of(
            "cp-1",
            new TrustedKeys.Trusted(
                    TrustedKeys.publicKey("erasure.signing.trusted-keys.cp-1.public-key", PUBLIC),
                    EnumSet.of(Kind.RUN))));

    private static Authorization unsigned(String dataset) {
        return Authorization.unsigned(
                Kind.RUN,
                "run-1",
                dataset,
                "spec-digest",
                "set-digest",
                1_000L,
                "APPROVED",
                "bob",
                Instant.parse("2026-01-01T00:00:00Z"));
    }

    @Test
    void aSignatureOfTheTrustedKeyVerifies() {
        Authorization signed = controlPlane.sign(unsigned("orders"));
        assertThat(signed.keyId()).isEqualTo("cp-1");
        assertThat(trusted.refusal(signed, Kind.RUN)).isEmpty();
    }

    @Test
    void anyChangedFieldBreaksTheSignature() {
        Authorization signed = controlPlane.sign(unsigned("orders"));
        Authorization otherTable = new Authorization(
                signed.kind(),
                signed.origin(),
                "accounts",
                signed.specDigest(),
                signed.setDigest(),
                signed.cutoffMicros(),
                signed.basis(),
                signed.authorizedBy(),
                signed.issuedAt(),
                signed.keyId(),
                signed.signature());
        Authorization laterCutoff = new Authorization(
                signed.kind(),
                signed.origin(),
                signed.dataset(),
                signed.specDigest(),
                signed.setDigest(),
                signed.cutoffMicros() + 1,
                signed.basis(),
                signed.authorizedBy(),
                signed.issuedAt(),
                signed.keyId(),
                signed.signature());
        assertThat(trusted.refusal(otherTable, Kind.RUN)).get().asString().contains("does not match its content");
        assertThat(trusted.refusal(laterCutoff, Kind.RUN)).get().asString().contains("does not match its content");
    }

    @Test
    void unsignedUnknownKeysAndUngrantedKindsAreRefused() {
        assertThat(trusted.refusal(unsigned("orders"), Kind.RUN))
                .get()
                .asString()
                .isEqualTo("it is not signed");
        Authorization byOther = SigningKey.of("cp-1", OTHER_PRIVATE).sign(unsigned("orders"));
        assertThat(trusted.refusal(byOther, Kind.RUN)).get().asString().contains("does not match");
        Authorization byUnknown = SigningKey.of("intruder", OTHER_PRIVATE).sign(unsigned("orders"));
        assertThat(trusted.refusal(byUnknown, Kind.RUN))
                .get()
                .asString()
                .contains("key 'intruder', which is not trusted");
        Authorization forward = controlPlane.sign(Authorization.unsigned(
                Kind.FORWARD, "req-1", "orders", "s", "t", 1, "FORWARD", "control-plane", Instant.EPOCH));
        assertThat(trusted.refusal(forward, Kind.FORWARD))
                .get()
                .asString()
                .contains("trusted for [RUN] but not for FORWARD");
        assertThat(trusted.refusal(forward, Kind.RUN))
                .get()
                .asString()
                .contains("FORWARD authorization where a RUN one");
    }

    @Test
    void aControlSignalVerifiesOnlyAsSignedAndOnlyForAKeyGrantedControl() {
        TrustedKeys control = TrustedKeys.of(
                Map.of("cp-1", new TrustedKeys.Trusted(TrustedKeys.publicKey("p", PUBLIC), EnumSet.of(Kind.CONTROL))));
        ControlSignal engage = ControlSignal.dataset(
                        "orders", true, List.of(RunId.of("run-2"), RunId.of("run-1")), "oncall", "incident")
                .signed(42, controlPlane);
        assertThat(control.refusal(engage.keyId(), Kind.CONTROL, engage.signedContent(), engage.signature()))
                .isEmpty();
        ControlSignal lifted = new ControlSignal(
                engage.scope(),
                false,
                engage.cancelledRuns(),
                engage.actor(),
                engage.reason(),
                engage.sequence(),
                engage.keyId(),
                engage.signature());
        ControlSignal later = new ControlSignal(
                engage.scope(),
                true,
                engage.cancelledRuns(),
                engage.actor(),
                engage.reason(),
                43,
                engage.keyId(),
                engage.signature());
        assertThat(control.refusal(lifted.keyId(), Kind.CONTROL, lifted.signedContent(), lifted.signature()))
                .get()
                .asString()
                .contains("does not match");
        assertThat(control.refusal(later.keyId(), Kind.CONTROL, later.signedContent(), later.signature()))
                .as("the sequence is signed too")
                .get()
                .asString()
                .contains("does not match");
        assertThat(trusted.refusal(engage.keyId(), Kind.CONTROL, engage.signedContent(), engage.signature()))
                .get()
                .asString()
                .contains("trusted for [RUN] but not for CONTROL");
    }

    @Test
    void keysThatAreNotEd25519FailNamingTheProperty() {
        assertThatThrownBy(() -> SigningKey.of("cp-1", ""))
                .hasMessageContaining("erasure.signing.private-key is required");
        assertThatThrownBy(() -> SigningKey.of("cp-1", "bm90LWEta2V5"))
                .hasMessageContaining("not an Ed25519 private key");
        assertThatThrownBy(() -> TrustedKeys.publicKey("erasure.signing.trusted-keys.x.public-key", PRIVATE))
                .hasMessageContaining("erasure.signing.trusted-keys.x.public-key is not an Ed25519 public key");
    }

    @Test
    void aFinalSetDigestCoversEveryPartsKeysButNotTheirOrderOrTyping() {
        String digest = FinalSetManifest.keysDigest(List.of(Map.of("id", 1), Map.of("id", 2L)));
        assertThat(FinalSetManifest.keysDigest(List.of(Map.of("id", 2), Map.of("id", 1L))))
                .isEqualTo(digest);
        assertThat(FinalSetManifest.keysDigest(List.of(Map.of("id", 1)))).isNotEqualTo(digest);
        FinalSetManifest manifest = new FinalSetManifest(
                "run-1",
                "orders",
                List.of(
                        FinalSetManifest.Part.of(3, List.of(Map.of("id", 1))),
                        FinalSetManifest.Part.of(0, List.of(Map.of("id", 2)))));
        assertThat(manifest.parts()).extracting(FinalSetManifest.Part::index).containsExactly(0, 3);
        FinalSetManifest anotherRun = new FinalSetManifest("run-2", "orders", manifest.parts());
        FinalSetManifest onePartLess =
                new FinalSetManifest("run-1", "orders", manifest.parts().subList(0, 1));
        assertThat(anotherRun.digest()).isNotEqualTo(manifest.digest());
        assertThat(onePartLess.digest()).isNotEqualTo(manifest.digest());
        assertThat(new FinalSetManifest(
                                "run-1",
                                "orders",
                                List.of(
                                        manifest.parts().get(1),
                                        manifest.parts().get(0)))
                        .digest())
                .isEqualTo(manifest.digest());
    }
}
