package io.erasure.validation.tasks;

import io.erasure.model.contract.Topics;
import io.erasure.model.task.DeletionTask;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Publishes deletion tasks on {@code erasure.deletion.tasks}, keyed by (dataset, partition key of the
 * task's first key) so one shard owns each key range. Sends are idempotent and acknowledged by all
 * in-sync replicas; a task published twice (after a crash) has the same id and is applied once.
 */
@Component
public class TaskPublisher {

    private final KafkaTemplate<String, String> kafka;
    private final JsonMapper json;

    public TaskPublisher(KafkaTemplate<String, String> kafka, JsonMapper json) {
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
        } catch (Exception e) {
            throw new IllegalStateException("publishing " + tasks.size() + " deletion tasks failed: " + e.getMessage(), e);
        }
    }
}
