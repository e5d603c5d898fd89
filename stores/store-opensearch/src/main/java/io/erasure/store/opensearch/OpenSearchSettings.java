package io.erasure.store.opensearch;

import io.erasure.store.spi.SettingsSpec;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The settings of one OpenSearch (or Elasticsearch) connection ({@code erasure.connections.<ref>.settings.*}).
 *
 * @param url                  {@code url}: the cluster's REST endpoint, {@code http(s)://host:port}, no path
 * @param username             {@code username} and {@code password}: HTTP Basic credentials, both or neither
 * @param timeout              {@code timeout-ms} (default 10000): connecting and every call
 * @param maxBatch             {@code max-batch} (default 500, at most {@value #MAX_BATCH}): keys per call
 * @param maxDocumentsPerBatch {@code max-documents-per-batch} (default 5000, at most 9999): the most documents a
 *                             term-addressed batch may match; a batch matching more fails rather than delete part of
 *                             a row
 * @param indexPrefixes        {@code index-prefixes}: an optional comma list; when set, a dataset is served only if
 *                             its index starts with one of them, so a misregistered target cannot reach other indexes
 * @param searchLatencyLimitMs {@code search-latency-limit-ms} (default 50): the mean query time that counts as fully
 *                             loaded
 * @param queueLimit           {@code queue-limit} (default 200): write or search tasks queued on a node that count
 *                             as fully loaded
 * @param expungeDeletes       {@code expunge-deletes} (default false): when true, deletion may start
 *                             {@code _forcemerge?only_expunge_deletes=true} on a dataset's index once its deleted
 *                             documents are past their retention lease, while the cluster has headroom
 */
public record OpenSearchSettings(
        String ref,
        URI url,
        @Nullable String username,
        @Nullable String password,
        Duration timeout,
        int maxBatch,
        int maxDocumentsPerBatch,
        List<String> indexPrefixes,
        int searchLatencyLimitMs,
        int queueLimit,
        boolean expungeDeletes) {

    public static final int MAX_BATCH = 1_000;

    /** Every setting an OpenSearch connection may have. */
    public static final SettingsSpec SPEC = SettingsSpec.of(
            "url",
            "username",
            "password",
            "timeout-ms",
            "max-batch",
            "max-documents-per-batch",
            "index-prefixes",
            "search-latency-limit-ms",
            "queue-limit",
            "expunge-deletes");

    public OpenSearchSettings {
        if (maxBatch < 1 || maxBatch > MAX_BATCH) {
            throw new StoreException.Fatal("connection '" + ref + "' setting 'max-batch' must be within 1.." + MAX_BATCH
                    + ", got " + maxBatch);
        }
        if (maxDocumentsPerBatch < 1 || maxDocumentsPerBatch > 9_999) {
            // one more than the limit is asked for, to tell a batch over it: within a default max_result_window
            throw new StoreException.Fatal("connection '" + ref + "' setting 'max-documents-per-batch' must be within"
                    + " 1..9999 (an index's max_result_window is 10000 unless raised), got " + maxDocumentsPerBatch);
        }
        positive(ref, "search-latency-limit-ms", searchLatencyLimitMs);
        positive(ref, "queue-limit", queueLimit);
        indexPrefixes = List.copyOf(indexPrefixes);
        if ((username == null) != (password == null)) {
            throw new StoreException.Fatal("connection '" + ref + "' needs both 'username' and 'password', or neither");
        }
    }

    public static OpenSearchSettings from(StoreConnection connection) {
        String ref = connection.ref();
        String raw = connection
                .setting("url")
                .orElseThrow(() -> new StoreException.Fatal("connection '" + ref + "' needs setting 'url'"
                        + " (http://host:9200); configure " + StoreConnection.property(ref, "url")));
        URI url;
        try {
            url = URI.create(raw.endsWith("/") ? raw.substring(0, raw.length() - 1) : raw);
        } catch (IllegalArgumentException e) {
            throw new StoreException.Fatal("connection '" + ref + "' setting 'url' is not a URL: " + e.getMessage());
        }
        if (url.getScheme() == null
                || !List.of("http", "https").contains(url.getScheme())
                || url.getHost() == null
                || url.getUserInfo() != null
                || (url.getRawPath() != null && !url.getRawPath().isEmpty())
                || url.getRawQuery() != null) {
            throw new StoreException.Fatal("connection '" + ref + "' setting 'url' must be http(s)://host:port without"
                    + " path, query or credentials (use 'username' and 'password'); got " + raw);
        }
        int timeoutMs = connection.intSetting("timeout-ms", 10_000);
        positive(ref, "timeout-ms", timeoutMs);
        return new OpenSearchSettings(
                ref,
                url,
                connection.setting("username").orElse(null),
                connection.setting("password").orElse(null),
                Duration.ofMillis(timeoutMs),
                connection.intSetting("max-batch", 500),
                connection.intSetting("max-documents-per-batch", 5_000),
                connection
                        .setting("index-prefixes")
                        .map(list -> Arrays.stream(list.split(","))
                                .map(String::trim)
                                .filter(p -> !p.isEmpty())
                                .toList())
                        .orElse(List.of()),
                connection.intSetting("search-latency-limit-ms", 50),
                connection.intSetting("queue-limit", 200),
                connection.booleanSetting("expunge-deletes", false));
    }

    /** Never the password: settings end up in logs and errors. */
    @Override
    public String toString() {
        return "OpenSearchSettings[ref=" + ref + ", url=" + url + ", username=" + username + ", password="
                + (password == null ? "none" : "***") + ", maxBatch=" + maxBatch + ", indexPrefixes=" + indexPrefixes
                + ", expungeDeletes=" + expungeDeletes + "]";
    }

    private static void positive(String ref, String name, int value) {
        if (value < 1) {
            throw new StoreException.Fatal(
                    "connection '" + ref + "' setting '" + name + "' must be >= 1, got " + value);
        }
    }
}
