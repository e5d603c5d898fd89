package io.erasure.recovery.reapply;

import io.erasure.model.contract.Topics;
import io.erasure.model.task.DeletionTask;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;
import tools.jackson.databind.json.JsonMapper;

/**
 * Publishes deletion tasks on {@code erasure.deletion.tasks} as validation does, keyed by (dataset, partition of
 * the task's first key); returns once every in-sync replica has them. A task published twice has the same id and
 * is applied once.
 */
public class DeletionTaskPublisher {

    private final KafkaTemplate<String, String> kafka;
    private final JsonMapper json;

    public DeletionTaskPublisher(KafkaTemplate<String, String> kafka, JsonMapper json) {
        this.kafka = kafka;
        this.json = json;
    }

    public void publish(List<DeletionTask> tasks) {
        List<CompletableFuture<SendResult<String, String>>> sends = new ArrayList<>();
        for (DeletionTask task : tasks) {
            sends.add(kafka.send(Topics.DELETION_TASKS, Topics.taskKey(task), json.writeValueAsString(task)));
        }
        try {
            CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(2, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while publishing " + tasks.size() + " deletion tasks", e);
        } catch (Exception e) {
            throw new IllegalStateException("publishing " + tasks.size() + " deletion tasks failed: " + e.getMessage(), e);
        }
    }
}
