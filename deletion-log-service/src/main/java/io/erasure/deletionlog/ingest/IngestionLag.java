package io.erasure.deletionlog.ingest;

import io.erasure.model.contract.Topics;
import io.erasure.support.kafka.ConsumerGroupLag;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.apache.kafka.clients.admin.Admin;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.stereotype.Component;

/**
 * How far log ingestion is behind the topic ({@link ConsumerGroupLag}). The deletion service pauses while
 * this passes a threshold, so a lagging log never holds the only copy of deleted rows for long. Also the
 * gauge {@code erasure.deletion_log.lag}.
 */
@Component
public class IngestionLag implements DisposableBean {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final Admin admin;

    public IngestionLag(KafkaAdmin kafkaAdmin, MeterRegistry meters) {
        this.admin = Admin.create(kafkaAdmin.getConfigurationProperties());
        Gauge.builder("erasure.deletion_log.lag", this, lag -> {
                    try {
                        return lag.current().total();
                    } catch (RuntimeException e) {
                        return Double.NaN;
                    }
                })
                .description("records on " + Topics.DELETION_LOG + " not yet stored in the log")
                .register(meters);
    }

    public ConsumerGroupLag.Lag current() {
        return ConsumerGroupLag.measure(admin, Topics.DELETION_LOG, DeletionLogListener.GROUP, TIMEOUT);
    }

    @Override
    public void destroy() {
        admin.close(Duration.ofSeconds(2));
    }
}
