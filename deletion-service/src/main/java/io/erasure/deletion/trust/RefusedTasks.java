package io.erasure.deletion.trust;

import io.erasure.model.contract.Topics;
import io.erasure.model.task.DeletionTask;
import io.erasure.model.task.RefusedTask;
import io.erasure.model.trust.Authorization.Kind;
import io.erasure.model.trust.SigningKey;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The tasks {@link TaskVerifier} refused. A refused task is not proven authentic, so the ids it carries are only what
 * it claims: anyone who can produce to {@code erasure.deletion.tasks} can claim a genuine run's or request's ids, or
 * copy a genuine task's authorization onto other keys. Its refusal therefore changes no run's or request's state (no
 * {@code BatchFailed} under those ids, which would fail a genuine run): it is logged at WARN with the reason, counted
 * ({@code erasure.deletion.tasks.refused}, tagged by {@code kind} and a short {@code reason} class) and published as a
 * {@link RefusedTask} on {@link Topics#DELETION_TASKS_REFUSED}, keyed by the run or request it claims, where the
 * control plane shows it beside that run or request without failing anything.
 */
public class RefusedTasks {

    private static final Logger log = LoggerFactory.getLogger(RefusedTasks.class);

    public static final String METRIC = "erasure.deletion.tasks.refused";

    private final KafkaTemplate<String, String> kafka;
    private final JsonMapper json;
    private final Clock clock;
    private final MeterRegistry meters;
    private final SigningKey key;

    /** {@code key}: this service's, which signs each report so that the control plane can tell it from a forged one. */
    public RefusedTasks(
            KafkaTemplate<String, String> kafka, JsonMapper json, Clock clock, MeterRegistry meters, SigningKey key) {
        this.key = key;
        this.kafka = kafka;
        this.json = json;
        this.clock = clock;
        this.meters = meters;
    }

    /** A refusal on its way to the topic, until it is acknowledged. */
    @FunctionalInterface
    public interface Sent {
        /** Returns once the record is acknowledged; throws {@link IllegalStateException} otherwise. */
        void await();
    }

    /** Reports {@code task}, read as {@code record}, as refused for {@code refusal}; nothing was read or deleted. */
    public Sent refuse(ConsumerRecord<String, String> record, DeletionTask task, Refusal refusal) {
        Kind kind = TaskVerifier.kindOf(task);
        RefusedTask refused = RefusedTask.of(
                        task,
                        kind,
                        refusal.reasonClass(),
                        refusal.reason(),
                        record.topic(),
                        record.partition(),
                        record.offset(),
                        clock.instant())
                .signed(key);
        log.warn(
                "deletion task {} at {} refused ({}), nothing deleted; it claims {} {} of {},"
                        + " and since it is not proven authentic that {} is left as it is: {}",
                task.taskId(),
                refused.source(),
                refusal.reasonClass(),
                task.origin().noun(),
                refused.originId(),
                task.dataset(),
                task.origin().noun(),
                refusal.reason());
        Counter.builder(METRIC)
                .description("deletion tasks refused because they could not be proven authentic (unsigned, forged,"
                        + " altered or another's authorization); they change no run's or request's state")
                .tag("kind", kind.name())
                .tag("reason", refusal.reasonClass())
                .register(meters)
                .increment();
        CompletableFuture<?> sent;
        try {
            sent = kafka.send(
                    Topics.DELETION_TASKS_REFUSED, Topics.refusedTaskKey(refused), json.writeValueAsString(refused));
        } catch (RuntimeException e) {
            throw new IllegalStateException(
                    "could not report refused task " + task.taskId() + ": " + e.getMessage(), e);
        }
        return () -> {
            try {
                sent.get(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while reporting refused task " + task.taskId(), e);
            } catch (Exception e) {
                throw new IllegalStateException(
                        "could not report refused task " + task.taskId() + ": " + e.getMessage(), e);
            }
        };
    }

    /** Waits for every one of {@code sent} (the poll's offsets are committed only after). */
    public void await(List<Sent> sent) {
        if (sent.isEmpty()) {
            return;
        }
        kafka.flush(); // they go now, not after the producer's linger
        sent.forEach(Sent::await);
    }
}
