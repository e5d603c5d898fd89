package io.erasure.controlplane.refused;

import io.erasure.model.contract.Topics;
import io.erasure.model.task.RefusedTask;
import io.erasure.model.trust.TrustedKeys;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Feeds {@code erasure.deletion.tasks.refused} into {@link RefusedTaskTotals}, in a consumer group of its own: the
 * tasks the deletion service refused as not proven authentic, shown per run and per forward request they claim. A
 * refusal never moves a run or a request (a forged task must not fail a genuine run); it only makes the attempt
 * visible. Only reports signed by a key trusted for the deletion service's results ({@code BATCH_RESULT}) are kept:
 * anyone who can produce to the topic could otherwise put words of their own beside a genuine run ("approved elsewhere,
 * ...") or inflate its count. An unsigned or badly signed report is logged and counted ({@value #FORGED}), nothing
 * else.
 */
@Component
public class RefusedTasksListener {

    private static final Logger log = LoggerFactory.getLogger(RefusedTasksListener.class);

    /** As long as the topic keeps refusals: a refusal read again within it is recognised. */
    static final Duration KEPT = Duration.ofDays(7);

    /** The counter of refused-task reports dropped for their signature. */
    static final String FORGED = "erasure.refused_tasks.reports.unverified";

    private final RefusedTaskTotals totals;
    private final JsonMapper json;
    private final Clock clock;
    private final TrustedKeys trusted;
    private final Counter unverified;

    public RefusedTasksListener(
            RefusedTaskTotals totals, JsonMapper json, Clock clock, TrustedKeys trusted, MeterRegistry meters) {
        this.totals = totals;
        this.json = json;
        this.clock = clock;
        this.trusted = trusted;
        this.unverified = Counter.builder(FORGED)
                .description("reports on " + Topics.DELETION_TASKS_REFUSED
                        + " dropped because no trusted deletion-service key signed them")
                .register(meters);
    }

    @KafkaListener(
            topics = Topics.DELETION_TASKS_REFUSED,
            groupId = "${erasure.control-plane.group:control-plane}-refused")
    public void onRefused(String message) {
        RefusedTask refused;
        try {
            refused = json.readValue(message, RefusedTask.class);
        } catch (JacksonException | IllegalArgumentException e) {
            log.error(
                    "unreadable refused-task record on {} skipped: {}", Topics.DELETION_TASKS_REFUSED, e.getMessage());
            return;
        }
        Optional<String> unsigned = refused.signatureRefusal(trusted);
        if (unsigned.isPresent()) {
            unverified.increment();
            log.warn(
                    "a refused-task report claiming {} on {} is dropped, not shown: {}",
                    refused.originId(),
                    Topics.DELETION_TASKS_REFUSED,
                    unsigned.get());
            return;
        }
        RefusedTaskTotals.Outcome outcome = totals.count(refused, clock.instant());
        switch (outcome) {
            case COUNTED ->
                log.info(
                        "a task claiming {} {} ({}) was refused by the deletion service and deleted nothing;"
                                + " the {} is left as it is: {}",
                        refused.runId() != null ? "run" : "forward request",
                        refused.originId(),
                        refused.dataset(),
                        refused.runId() != null ? "run" : "request",
                        refused.reason());
            case UNKNOWN_ORIGIN ->
                log.debug(
                        "refused task {} claims {}, which is not known here: not kept",
                        refused.taskId(),
                        refused.originId());
            case DUPLICATE -> {}
        }
    }

    /** Refusal ids older than the topic's retention, and the totals of requests no longer kept, go. */
    @Scheduled(
            initialDelayString = "${erasure.control-plane.refused-prune-interval:1h}",
            fixedDelayString = "${erasure.control-plane.refused-prune-interval:1h}")
    void prune() {
        int pruned = totals.prune(clock.instant().minus(KEPT));
        if (pruned > 0) {
            log.info("pruned {} refused-task id(s) and total(s)", pruned);
        }
    }

    /** The refused tasks' topic, created if missing, as the deletion service (its producer) creates it. */
    @Configuration
    static class RefusedTasksTopic {
        @Bean
        NewTopic refusedTasksTopic(
                @Value("${erasure.topics.refused-partitions:1}") int partitions,
                @Value("${erasure.topics.replicas:1}") int replicas) {
            return TopicBuilder.name(Topics.DELETION_TASKS_REFUSED)
                    .partitions(partitions)
                    .replicas(replicas)
                    .config(TopicConfig.RETENTION_MS_CONFIG, Long.toString(KEPT.toMillis()))
                    .build();
        }
    }
}
