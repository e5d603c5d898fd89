package io.erasure.validation.resurrection;

import java.util.List;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Where validation reads the deletion log to find resurrected rows ({@code erasure.validation.deletion-log.*}),
 * the same cluster deletion-log-service writes ({@code spring.cassandra.*} there). No contact points:
 * resurrection detection is off, and every report says so ({@code resurrectionCheck: "not configured"}).
 *
 * @param contactPoints   {@code host:port} (or {@code host}, port 9042) of the log's Cassandra nodes
 * @param localDatacenter the datacenter of those nodes; required with contact points
 * @param keyspace        the log's keyspace, {@code deletion_log} by default
 * @param username        optional, with {@code password}
 * @param password        optional
 */
@ConfigurationProperties("erasure.validation.deletion-log")
public record DeletionLogConnection(
        List<String> contactPoints, String localDatacenter, String keyspace, String username, String password) {

    private static final String PREFIX = "erasure.validation.deletion-log.";
    private static final Pattern KEYSPACE = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,47}");
    private static final int DEFAULT_PORT = 9042;

    public DeletionLogConnection {
        contactPoints = contactPoints == null
                ? List.of()
                : contactPoints.stream()
                        .map(String::trim)
                        .filter(point -> !point.isEmpty())
                        .toList();
        keyspace = keyspace == null || keyspace.isBlank() ? "deletion_log" : keyspace.trim();
        if (!KEYSPACE.matcher(keyspace).matches()) {
            throw new IllegalArgumentException(
                    PREFIX + "keyspace must be a Cassandra keyspace name (a letter, then letters,"
                            + " digits or '_'), got '" + keyspace + "'");
        }
        if (!contactPoints.isEmpty() && (localDatacenter == null || localDatacenter.isBlank())) {
            throw new IllegalArgumentException(
                    PREFIX + "local-datacenter is required with " + PREFIX + "contact-points: name"
                            + " the datacenter of those nodes (as spring.cassandra.local-datacenter in"
                            + " deletion-log-service), e.g. datacenter1");
        }
        if ((username == null) != (password == null)) {
            throw new IllegalArgumentException(
                    PREFIX + "username and " + PREFIX + "password go together: set both or neither");
        }
        endpoints(contactPoints);
    }

    /** True when resurrection detection can read the log. */
    public boolean configured() {
        return !contactPoints.isEmpty();
    }

    /** The contact points as the driver's {@code basic.contact-points} takes them: {@code host:port}. */
    public List<String> endpoints() {
        return endpoints(contactPoints);
    }

    private static List<String> endpoints(List<String> points) {
        return points.stream().map(DeletionLogConnection::endpoint).toList();
    }

    private static String endpoint(String point) {
        int colon = point.lastIndexOf(':');
        if (colon < 0) {
            return point + ":" + DEFAULT_PORT;
        }
        try {
            int port = Integer.parseInt(point.substring(colon + 1));
            if (colon == 0 || port < 1 || port > 65_535) {
                throw new NumberFormatException();
            }
            return point.substring(0, colon) + ":" + port;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PREFIX + "contact-points must list host:port (or host), comma-separated,"
                    + " e.g. cassandra-1:9042,cassandra-2:9042; got '" + point + "'");
        }
    }

    @Override
    public String toString() {
        return "DeletionLogConnection[contactPoints=" + contactPoints + ", localDatacenter=" + localDatacenter
                + ", keyspace=" + keyspace + ", username=" + username + ", password="
                + (password == null ? null : "***") + "]";
    }
}
