package io.erasure.controlplane.control;

import io.erasure.model.contract.Topics;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.TopicBuilder;

/** The run topics and the compacted control topic, created if missing (replicas from configuration). */
@Configuration
class ControlTopics {

    @Bean
    NewTopic controlTopic(@Value("${erasure.topics.replicas:1}") int replicas) {
        return TopicBuilder.name(Topics.CONTROL)
                .partitions(1)
                .replicas(replicas)
                .compact()
                .build();
    }

    @Bean
    NewTopic runCommandsTopic(
            @Value("${erasure.topics.replicas:1}") int replicas,
            @Value("${erasure.topics.run-partitions:4}") int partitions) {
        return TopicBuilder.name(Topics.RUN_COMMANDS)
                .partitions(partitions)
                .replicas(replicas)
                .build();
    }

    @Bean
    NewTopic runEventsTopic(
            @Value("${erasure.topics.replicas:1}") int replicas,
            @Value("${erasure.topics.run-partitions:4}") int partitions) {
        return TopicBuilder.name(Topics.RUN_EVENTS)
                .partitions(partitions)
                .replicas(replicas)
                .build();
    }
}
