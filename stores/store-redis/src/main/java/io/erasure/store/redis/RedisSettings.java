package io.erasure.store.redis;

import io.erasure.store.spi.SettingsSpec;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * The settings of one Redis connection ({@code erasure.connections.<ref>.settings.*}). The server is a standalone Redis
 * (or a proxy in front of one): multi-key {@code UNLINK} is not split by hash slot, so Redis Cluster is not supported.
 *
 * @param uri            {@code uri} ({@code redis://[[username]:password@]host[:port][/database]}, {@code rediss://}
 *                       for TLS), or {@code host} and {@code port} (default 6379); {@code username}, {@code password},
 *                       {@code database} and {@code timeout-ms} (default 5000, for connecting and for every command)
 *                       override what the URI says
 * @param pipelineSize   {@code pipeline-size}: keys per {@code UNLINK} command (default 500, at most
 *                       {@value RedisAdapter#MAX_BATCH}); a plan's commands are sent together and awaited together
 * @param keyPrefixes    {@code key-prefixes}: an optional comma list; when set, a dataset is served only if the literal
 *                       start of its key template (up to the first placeholder) starts with one of them, so a
 *                       misregistered template cannot delete outside the cache's namespace
 * @param opsLimit       {@code ops-limit}: commands per second that count as fully loaded (default 50000)
 * @param latencyLimitMs {@code latency-limit-ms}: the {@code PING} round trip that counts as fully loaded (default 20)
 */
public record RedisSettings(
        String ref, RedisURI uri, int pipelineSize, List<String> keyPrefixes, int opsLimit, int latencyLimitMs) {

    /** Every setting a Redis connection may have. */
    public static final SettingsSpec SPEC = SettingsSpec.of(
            "uri",
            "host",
            "port",
            "username",
            "password",
            "database",
            "timeout-ms",
            "pipeline-size",
            "key-prefixes",
            "ops-limit",
            "latency-limit-ms");

    public static final int DEFAULT_PIPELINE_SIZE = 500;
    public static final int DEFAULT_PORT = 6379;

    public RedisSettings {
        if (pipelineSize < 1 || pipelineSize > RedisAdapter.MAX_BATCH) {
            throw new StoreException.Fatal("connection '" + ref + "' setting 'pipeline-size' must be within 1.."
                    + RedisAdapter.MAX_BATCH + ", got " + pipelineSize);
        }
        positive(ref, "ops-limit", opsLimit);
        positive(ref, "latency-limit-ms", latencyLimitMs);
        keyPrefixes = List.copyOf(keyPrefixes);
    }

    public static RedisSettings from(StoreConnection connection) {
        String ref = connection.ref();
        RedisURI uri = connection
                .setting("uri")
                .map(value -> parse(ref, value))
                .orElseGet(() -> RedisURI.builder()
                        .withHost(connection
                                .setting("host")
                                .orElseThrow(() -> new StoreException.Fatal("connection '" + ref
                                        + "' needs setting 'uri' (redis://host:6379/0) or 'host' (and 'port');"
                                        + " configure "
                                        + StoreConnection.property(ref, "host"))))
                        .withPort(port(connection))
                        .build());
        connection.setting("username").ifPresent(uri::setUsername);
        connection.setting("password").ifPresent(password -> uri.setPassword(password.toCharArray()));
        int database = connection.intSetting("database", uri.getDatabase());
        if (database < 0) {
            throw new StoreException.Fatal("connection '" + ref + "' setting 'database' must be >= 0, got " + database);
        }
        uri.setDatabase(database);
        int timeoutMs = connection.intSetting("timeout-ms", 5_000);
        positive(ref, "timeout-ms", timeoutMs);
        uri.setTimeout(Duration.ofMillis(timeoutMs));
        uri.setClientName("erasure-" + ref);
        return new RedisSettings(
                ref,
                uri,
                connection.intSetting("pipeline-size", DEFAULT_PIPELINE_SIZE),
                prefixes(connection.setting("key-prefixes").orElse("")),
                connection.intSetting("ops-limit", 50_000),
                connection.intSetting("latency-limit-ms", 20));
    }

    public Duration timeout() {
        return uri.getTimeout();
    }

    /** Where the server is, without credentials, for messages. */
    public String address() {
        return (uri.isSsl() ? "rediss://" : "redis://") + uri.getHost() + ":" + uri.getPort() + "/" + uri.getDatabase();
    }

    @Override
    public String toString() {
        return "RedisSettings[ref=" + ref + ", address=" + address() + ", username=" + uri.getUsername() + ", password="
                + (uri.getPassword() == null ? "none" : "***") + ", timeout=" + timeout() + ", pipelineSize="
                + pipelineSize
                + ", keyPrefixes=" + keyPrefixes + ", opsLimit=" + opsLimit + ", latencyLimitMs=" + latencyLimitMs
                + "]";
    }

    private static RedisURI parse(String ref, String value) {
        try {
            RedisURI uri = RedisURI.create(value.trim());
            if (uri.getHost() == null
                    || uri.getSentinels() != null && !uri.getSentinels().isEmpty()) {
                throw new IllegalArgumentException("no host");
            }
            return uri;
        } catch (IllegalArgumentException e) {
            // the message of a failed parse may echo the password: never repeat the value
            throw new StoreException.Fatal("connection '" + ref + "' setting 'uri' must look like"
                    + " redis://[[username]:password@]host[:port][/database] (or rediss:// for TLS)");
        }
    }

    private static int port(StoreConnection connection) {
        int port = connection.intSetting("port", DEFAULT_PORT);
        if (port < 1 || port > 65_535) {
            throw new StoreException.Fatal(
                    "connection '" + connection.ref() + "' setting 'port' must be within 1..65535," + " got " + port);
        }
        return port;
    }

    private static List<String> prefixes(String list) {
        return Arrays.stream(list.split(","))
                .map(String::trim)
                .filter(p -> !p.isEmpty())
                .toList();
    }

    private static void positive(String ref, String name, int value) {
        if (value < 1) {
            throw new StoreException.Fatal(
                    "connection '" + ref + "' setting '" + name + "' must be >= 1, got " + value);
        }
    }
}
