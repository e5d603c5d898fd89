package io.erasure.deletion.throttle;

import io.erasure.model.contract.Topics;
import io.erasure.model.event.ThrottleSample;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;

/**
 * This replica's throttle as one summary per store: served at {@code GET /api/throttle} and published every
 * {@code erasure.deletion.throttle-sample-interval} (10 s) on {@value Topics#THROTTLE_SAMPLES}, from which the
 * control plane keeps the dashboard's history of every replica. A sample that cannot be sent is dropped with a
 * warning: the next one follows, and deletion never waits for its display.
 */
@Component
public class ThrottleSamples {

    private static final Logger log = LoggerFactory.getLogger(ThrottleSamples.class);

    private final AdaptiveThrottle throttle;
    private final KafkaTemplate<String, String> kafka;
    private final JsonMapper json;
    private final Clock clock;
    private final String replica;

    public ThrottleSamples(
            AdaptiveThrottle throttle, KafkaTemplate<String, String> kafka, JsonMapper json, Clock clock) {
        this.throttle = throttle;
        this.kafka = kafka;
        this.json = json;
        this.clock = clock;
        this.replica = replicaName();
    }

    /** The host name (a pod's name on Kubernetes) and the process id: unique among running replicas. */
    static String replicaName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "unknown-host";
        }
        String name = host.replaceAll("[^A-Za-z0-9._:-]", "-") + "/"
                + ProcessHandle.current().pid();
        return ThrottleSample.REPLICA.matcher(name).matches()
                ? name
                : "replica/" + ProcessHandle.current().pid();
    }

    public ThrottleSample current() {
        return new ThrottleSample(replica, clock.instant(), throttle.summary());
    }

    @Scheduled(
            initialDelayString = "${erasure.deletion.throttle-sample-interval:10s}",
            fixedDelayString = "${erasure.deletion.throttle-sample-interval:10s}")
    void publish() {
        ThrottleSample sample = current();
        if (sample.stores().isEmpty()) {
            return; // nothing deleted yet: nothing to chart
        }
        try {
            kafka.send(Topics.THROTTLE_SAMPLES, replica, json.writeValueAsString(sample))
                    .whenComplete((sent, failure) -> {
                        if (failure != null) {
                            log.warn("throttle sample not sent, the next one follows: {}", failure.toString());
                        }
                    });
        } catch (RuntimeException e) {
            log.warn("throttle sample not sent, the next one follows: {}", e.toString());
        }
    }

    /** {@code GET /api/throttle}: this replica's throttle per store, in one answer. */
    @RestController
    static class ThrottleController {
        private final ThrottleSamples samples;

        ThrottleController(ThrottleSamples samples) {
            this.samples = samples;
        }

        @GetMapping("/api/throttle")
        ThrottleSample throttle() {
            return samples.current();
        }
    }

    /** The samples' topic, kept a day: the dashboard's window. */
    @Configuration(proxyBeanMethods = false)
    static class SamplesTopic {
        @Bean
        NewTopic throttleSamplesTopic(@Value("${erasure.topics.replicas:1}") int replicas) {
            return TopicBuilder.name(Topics.THROTTLE_SAMPLES)
                    .partitions(1)
                    .replicas(replicas)
                    .config(TopicConfig.RETENTION_MS_CONFIG, Long.toString(Topics.THROTTLE_SAMPLES_RETENTION_MS))
                    .build();
        }
    }
}
