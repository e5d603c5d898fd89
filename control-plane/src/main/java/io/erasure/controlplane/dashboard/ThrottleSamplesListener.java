package io.erasure.controlplane.dashboard;

import io.erasure.model.contract.Topics;
import io.erasure.model.event.ThrottleSample;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Feeds {@value Topics#THROTTLE_SAMPLES} into {@link ThrottleHistory}, in a consumer group of its own, and prunes
 * what the history no longer keeps. A sample that cannot be read, or that claims a time outside the history (a
 * replica's clock far ahead, or a replay older than the window), is logged and dropped: a chart is never worth
 * stopping the consumer for.
 */
@Component
public class ThrottleSamplesListener {

    private static final Logger log = LoggerFactory.getLogger(ThrottleSamplesListener.class);

    /** How far ahead of this clock a replica's may be before its samples are dropped. */
    static final Duration CLOCK_SKEW = Duration.ofMinutes(5);

    private final ThrottleHistory history;
    private final JsonMapper json;
    private final Clock clock;

    public ThrottleSamplesListener(ThrottleHistory history, JsonMapper json, Clock clock) {
        this.history = history;
        this.json = json;
        this.clock = clock;
    }

    @KafkaListener(topics = Topics.THROTTLE_SAMPLES, groupId = "${erasure.control-plane.group:control-plane}-throttle")
    public void onSample(String message) {
        ThrottleSample sample;
        try {
            sample = json.readValue(message, ThrottleSample.class);
        } catch (JacksonException | IllegalArgumentException e) {
            log.warn("unreadable throttle sample on {} dropped: {}", Topics.THROTTLE_SAMPLES, e.getMessage());
            return;
        }
        Instant now = clock.instant();
        if (sample.sampledAt().isAfter(now.plus(CLOCK_SKEW))
                || sample.sampledAt().isBefore(now.minus(history.kept()))) {
            log.debug(
                    "throttle sample of {} taken at {} dropped: outside the kept history ({} back from {})",
                    sample.replica(),
                    sample.sampledAt(),
                    history.kept(),
                    now);
            return;
        }
        history.record(sample);
    }

    @Scheduled(initialDelayString = "1m", fixedDelayString = "10m")
    void prune() {
        int pruned = history.prune();
        if (pruned > 0) {
            log.debug("pruned {} throttle sample(s) older than {}", pruned, history.kept());
        }
    }

    /** The samples' topic, created if missing, as the deletion service (its producer) creates it. */
    @Configuration(proxyBeanMethods = false)
    static class ThrottleSamplesTopic {
        @Bean
        NewTopic throttleSamplesTopic(@Value("${erasure.topics.replicas:1}") int replicas) {
            return TopicBuilder.name(Topics.THROTTLE_SAMPLES)
                    .partitions(1)
                    .replicas(replicas)
                    .config(TopicConfig.RETENTION_MS_CONFIG, Long.toString(Topics.THROTTLE_SAMPLES_RETENTION_MS))
                    .build();
        }

        @Bean
        ThrottleHistory throttleHistory(JdbcTemplate jdbc, Clock clock, DashboardProperties properties) {
            return new ThrottleHistory(jdbc, clock, properties.throttleHistory(), properties.throttleSampleInterval());
        }
    }
}
