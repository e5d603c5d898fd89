package io.erasure.support.tasks;

import io.erasure.model.contract.Topics;
import io.erasure.model.task.DeletionTask;
import io.erasure.support.trust.TaskSigner;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;
import tools.jackson.databind.json.JsonMapper;

/**
 * Publishes deletion tasks on {@code erasure.deletion.tasks}, keyed by (dataset, partition key of the
 * task's first key) so one shard owns each key range, with the task's store (and whether it is paced) in headers
 * ({@link Topics#taskHeaders}), and returns once every send is acknowledged (by all
 * in-sync replicas, with the services' idempotent producer). A task published twice (after a crash, by a
 * retried request) has the same id and is applied once. Used by validation (a run's tasks), deletion (copy
 * tasks) and recovery (re-applied erasures).
 *
 * <p>A task that carries no authority is signed with this service's {@link TaskSigner} first (the deletion service
 * executes nothing unsigned); a publisher without one publishes only tasks that already carry theirs (validation: a
 * run's tasks carry the control plane's authorization) and refuses the others.
 */
public class DeletionTaskPublisher {

    private final KafkaTemplate<String, String> kafka;
    private final JsonMapper json;
    private final TaskSigner signer;

    /** A publisher of tasks that carry their authority already. */
    public DeletionTaskPublisher(KafkaTemplate<String, String> kafka, JsonMapper json) {
        this(kafka, json, null);
    }

    /** A publisher that signs, with {@code signer}, the tasks that carry no authority. */
    public DeletionTaskPublisher(KafkaTemplate<String, String> kafka, JsonMapper json, TaskSigner signer) {
        this.kafka = kafka;
        this.json = json;
        this.signer = signer;
    }

    private DeletionTask authorized(DeletionTask task) {
        if (task.authority() != null) {
            return task;
        }
        if (signer == null) {
            throw new IllegalStateException(
                    "task " + task.taskId() + " of " + task.dataset() + " carries no authorization"
                            + " and this service signs none (no erasure.signing.private-key):"
                            + " the deletion service would refuse it");
        }
        return signer.sign(task);
    }

    /** @throws IllegalStateException if a send is not acknowledged within 2 minutes; publishing again is safe */
    public void publish(List<DeletionTask> tasks) {
        List<CompletableFuture<SendResult<String, String>>> sends = new ArrayList<>();
        for (DeletionTask unsigned : tasks) {
            DeletionTask task = authorized(unsigned);
            ProducerRecord<String, String> message =
                    new ProducerRecord<>(Topics.DELETION_TASKS, Topics.taskKey(task), json.writeValueAsString(task));
            // the deletion lanes pick their own tasks by these, without reading the others'
            Topics.taskHeaders(task)
                    .forEach((name, value) -> message.headers().add(name, value.getBytes(StandardCharsets.UTF_8)));
            sends.add(kafka.send(message));
        }
        try {
            kafka.flush(); // every caller waits for these: they go now, not after the producer's linger
            CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(2, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while publishing " + tasks.size() + " deletion tasks", e);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "publishing " + tasks.size() + " deletion tasks failed: " + e.getMessage(), e);
        }
    }
}
