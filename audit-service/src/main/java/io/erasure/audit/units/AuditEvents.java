package io.erasure.audit.units;

import io.erasure.model.contract.S3Layout;
import io.erasure.model.contract.Topics;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.event.AuditCompleted;
import io.erasure.model.event.AuditFailed;
import io.erasure.model.event.AuditUnit;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.EventPayload;
import io.erasure.model.key.DeterministicId;
import io.erasure.model.run.RunId;
import io.erasure.model.trust.SigningKey;
import io.erasure.support.trust.SpecDigest;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Everything the audit sends, each with an id derived from what it is (run, unit index, event
 * type): a unit or an outcome sent twice after a crash is the same event, and consumers drop the
 * copy by its {@code eventId}. Sends wait for the broker's acknowledgement ({@code acks=all}).
 *
 * <p>The results on {@code erasure.run.events} are sealed with this service's key ({@code erasure.signing.*}), which
 * the control plane trusts for audit results only; {@link AuditCompleted} names the digest of the frozen spec the audit
 * joined with, so the control plane applies it only to the run that froze that spec.
 */
public class AuditEvents {

    private static final long SEND_TIMEOUT_SECONDS = 30;

    private final KafkaTemplate<String, String> kafka;
    private final String unitsTopic;
    private final JsonMapper json;
    private final Clock clock;
    private final SigningKey key;

    /**
     * @param unitsTopic {@code erasure.audit.units} (another name only to isolate tests sharing a broker)
     * @param key        seals every result on {@code erasure.run.events}
     */
    public AuditEvents(
            KafkaTemplate<String, String> kafka, String unitsTopic, JsonMapper json, Clock clock, SigningKey key) {
        this.kafka = kafka;
        this.unitsTopic = unitsTopic;
        this.json = json;
        this.clock = clock;
        this.key = Objects.requireNonNull(key, "key");
    }

    /**
     * One unit per part of the plan. All carry the run id as key (the topic's contract) but are
     * spread over the topic's partitions by part index, so the group's replicas share one audit
     * instead of one replica taking a whole run.
     */
    public void publishUnits(EventEnvelope request, AuditPlan plan, DatasetSpec spec) {
        int partitions = kafka.partitionsFor(unitsTopic).size();
        List<CompletableFuture<?>> sends = new ArrayList<>();
        for (int index = 0; index < plan.partCount(); index++) {
            AuditUnit unit = new AuditUnit(
                    spec,
                    plan.dataManifestKey(),
                    plan.partKeys().get(index),
                    index,
                    plan.partCount(),
                    plan.identifierManifestKey(),
                    CutoffTimestamp.ofMicros(plan.cutoffMicros()));
            EventEnvelope envelope = EventEnvelope.causedBy(request, unit, clock)
                    .withEventId(DeterministicId.nameBasedUuid("audit-unit", plan.runId(), Integer.toString(index)));
            sends.add(kafka.send(new ProducerRecord<>(
                    unitsTopic,
                    index % partitions,
                    Topics.runKey(RunId.of(plan.runId())),
                    json.writeValueAsString(envelope))));
        }
        await(CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)), "units of run " + plan.runId());
    }

    /**
     * @param spec   the frozen spec the audit joined with (the request's, carried by every unit)
     * @param totals the units' outcomes summed
     */
    public void completed(EventEnvelope cause, AuditPlan plan, DatasetSpec spec, UnitOutcome totals) {
        send(
                cause,
                plan.runId(),
                new AuditCompleted(
                        plan.dataset(),
                        plan.snapshot(),
                        CutoffTimestamp.ofMicros(plan.cutoffMicros()),
                        totals.rowsScanned(),
                        totals.candidates(),
                        S3Layout.candidatesPrefix(RunId.of(plan.runId())),
                        SpecDigest.of(spec),
                        totals.deletedNotPurged()));
    }

    public void failed(EventEnvelope cause, String runId, String dataset, String reason) {
        send(cause, runId, new AuditFailed(dataset, reason));
    }

    private void send(EventEnvelope cause, String runId, EventPayload payload) {
        String type = EventPayload.typeName(payload.getClass());
        UUID chain = cause != null ? cause.originChainId() : DeterministicId.nameBasedUuid("run-chain", runId);
        EventEnvelope event = EventEnvelope.of(payload, runId, chain, clock)
                .withEventId(DeterministicId.nameBasedUuid("audit-event", runId, type))
                .sealedWith(key);
        await(
                kafka.send(Topics.RUN_EVENTS, Topics.runKey(RunId.of(runId)), json.writeValueAsString(event)),
                type + " of run " + runId);
    }

    private static void await(CompletableFuture<?> send, String what) {
        try {
            send.get(SEND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending " + what, e);
        } catch (Exception e) {
            throw new IllegalStateException("could not send " + what + ": " + e.getMessage(), e);
        }
    }
}
