package io.erasure.support.stores;

import io.erasure.model.dataset.StoreKind;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The stores a service may reach, by the connection reference datasets name:
 * <pre>
 * erasure:
 *   connections:
 *     cassandra-main:
 *       kind: CASSANDRA
 *       settings: { contact-points: "10.0.0.1:9042", local-datacenter: dc1 }
 * </pre>
 * As environment variables: {@code ERASURE_CONNECTIONS_CASSANDRAMAIN_KIND} etc., or one
 * {@code SPRING_APPLICATION_JSON}. Credentials live here, never in dataset specs.
 */
@ConfigurationProperties("erasure")
public record StoreConnectionsProperties(Map<String, Connection> connections) {

    public StoreConnectionsProperties {
        connections = connections == null ? Map.of() : Map.copyOf(connections);
    }

    public record Connection(StoreKind kind, Map<String, String> settings) {
        public Connection {
            settings = settings == null ? Map.of() : Map.copyOf(settings);
        }
    }
}
