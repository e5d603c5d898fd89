package io.erasure.store.http;

import io.erasure.store.http.target.AddressRange;
import io.erasure.store.spi.SettingsSpec;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The operators' settings of one HTTP-callback connection ({@code erasure.connections.<ref>.settings.*}). They decide
 * where the platform may send requests; the data owner's spec only says which URL it wants.
 *
 * @param ref                   the connection's name, for messages that say which setting to change
 * @param allowedHosts          {@code allowed-hosts} (required): comma list of host names ({@code owner.example.com})
 *                              or {@code *.suffix} patterns ({@code *.corp.example.com}, any subdomain of it)
 * @param allowPrivateAddresses {@code allow-private-addresses} (default false): whether a host may resolve to any
 *                              address at all, however internal (loopback, private, link-local with the cloud
 *                              metadata address, carrier-grade NAT, NAT64, ...); prefer {@code allowed-addresses}
 * @param allowedAddresses      {@code allowed-addresses} (default none): comma list of the non-public ranges a host
 *                              may resolve to ({@code 10.20.0.0/16}, {@code 127.0.0.1/32}, {@code 64:ff9b::/96}
 *                              for NAT64), for owners inside the network; every other address must be public
 * @param timeoutMs             {@code timeout-ms}: connect and response timeout of one attempt (default 10000)
 * @param maxAttempts           {@code max-attempts}: attempts per call, the first included (default 4)
 * @param backoffMs             {@code backoff-ms}: first wait between attempts, doubled each time with jitter (default
 *                              200)
 * @param maxBatch              {@code max-batch}: keys per call (default 500)
 * @param secrets               {@code secret.<NAME>}: values of the {@code secret:NAME} header references; never logged
 * @param secretTeams           {@code secret-teams.<NAME>}: comma list of the owner teams whose specs may refer to
 *                              secret NAME (required for each secret): a connection is shared by many teams, and a
 *                              team's token must never be sent by another team's spec to that team's own endpoint
 */
public record HttpCallbackSettings(
        String ref,
        List<String> allowedHosts,
        boolean allowPrivateAddresses,
        List<AddressRange> allowedAddresses,
        int timeoutMs,
        int maxAttempts,
        int backoffMs,
        int maxBatch,
        Map<String, String> secrets,
        Map<String, Set<String>> secretTeams) {

    public static final String SECRET_PREFIX = "secret.";
    public static final String SECRET_TEAMS_PREFIX = "secret-teams.";

    /** Every setting an HTTP callback connection may have, with its {@code secret.*} and {@code secret-teams.*}. */
    public static final SettingsSpec SPEC = SettingsSpec.of(
                    "allowed-hosts",
                    "allow-private-addresses",
                    "allowed-addresses",
                    "timeout-ms",
                    "max-attempts",
                    "backoff-ms",
                    "max-batch")
            .withPrefixes(SECRET_PREFIX, SECRET_TEAMS_PREFIX);

    public HttpCallbackSettings {
        allowedHosts = List.copyOf(allowedHosts);
        allowedAddresses = List.copyOf(allowedAddresses);
        if (allowedHosts.isEmpty()) {
            throw new StoreException.Fatal(
                    "connection '" + ref + "' setting 'allowed-hosts' lists no host; name the hosts"
                            + " callbacks may reach, e.g. " + StoreConnection.property(ref, "allowed-hosts")
                            + "=owner.example.com,*.corp.example.com");
        }
        positive(ref, "timeout-ms", timeoutMs);
        positive(ref, "max-attempts", maxAttempts);
        positive(ref, "backoff-ms", backoffMs);
        positive(ref, "max-batch", maxBatch);
        secrets = Map.copyOf(secrets);
        secretTeams = Map.copyOf(secretTeams);
    }

    public static HttpCallbackSettings from(StoreConnection connection) {
        String ref = connection.ref();
        Map<String, String> secrets = new TreeMap<>();
        Map<String, Set<String>> secretTeams = new TreeMap<>();
        connection.settings().forEach((name, value) -> {
            if (name.startsWith(SECRET_PREFIX) && name.length() > SECRET_PREFIX.length()) {
                secrets.put(name.substring(SECRET_PREFIX.length()), value);
            }
            if (name.startsWith(SECRET_TEAMS_PREFIX) && name.length() > SECRET_TEAMS_PREFIX.length()) {
                Set<String> teams = new TreeSet<>();
                for (String team : value.split(",")) {
                    if (!team.isBlank()) {
                        teams.add(team.trim());
                    }
                }
                secretTeams.put(name.substring(SECRET_TEAMS_PREFIX.length()), teams);
            }
        });
        return new HttpCallbackSettings(
                ref,
                hostPatterns(ref, connection.required("allowed-hosts")),
                connection.booleanSetting("allow-private-addresses", false),
                addressRanges(ref, connection.setting("allowed-addresses").orElse("")),
                connection.intSetting("timeout-ms", 10_000),
                connection.intSetting("max-attempts", 4),
                connection.intSetting("backoff-ms", 200),
                connection.intSetting("max-batch", 500),
                secrets,
                secretTeams);
    }

    /** The setting an operator adds to say which teams may use secret {@code name}. */
    public String secretTeamsSetting(String name) {
        return StoreConnection.property(ref, SECRET_TEAMS_PREFIX + name);
    }

    /** The setting an operator adds to define secret {@code name}. */
    public String secretSetting(String name) {
        return StoreConnection.property(ref, SECRET_PREFIX + name);
    }

    // secrets stay out of logs and exception messages: only their names are shown
    @Override
    public String toString() {
        return "HttpCallbackSettings[ref=" + ref + ", allowedHosts=" + allowedHosts + ", allowPrivateAddresses="
                + allowPrivateAddresses + ", allowedAddresses="
                + allowedAddresses.stream().map(AddressRange::cidr).toList()
                + ", timeoutMs=" + timeoutMs + ", maxAttempts=" + maxAttempts + ", backoffMs="
                + backoffMs + ", maxBatch=" + maxBatch + ", secrets=" + new TreeMap<>(secrets).keySet()
                + ", secretTeams=" + new TreeMap<>(secretTeams) + "]";
    }

    private static List<String> hostPatterns(String ref, String value) {
        List<String> patterns = new ArrayList<>();
        for (String part : value.split(",")) {
            String pattern = part.trim().toLowerCase(Locale.ROOT);
            if (pattern.isEmpty()) {
                continue;
            }
            String host = pattern.startsWith("*.") ? pattern.substring(2) : pattern;
            if (host.isEmpty()
                    || host.contains("*")
                    || host.contains("/")
                    || host.contains(":") && !host.startsWith("[")) {
                throw new StoreException.Fatal("connection '" + ref + "' setting 'allowed-hosts' has '" + part.trim()
                        + "'; list host names (owner.example.com), IP addresses or '*.suffix' patterns"
                        + " (*.corp.example.com), without scheme, port or path; a bare '*' is not allowed");
            }
            patterns.add(pattern);
        }
        return patterns;
    }

    private static List<AddressRange> addressRanges(String ref, String value) {
        List<AddressRange> ranges = new ArrayList<>();
        for (String part : value.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            try {
                ranges.add(
                        AddressRange.parse(part, "allowed by " + StoreConnection.property(ref, "allowed-addresses")));
            } catch (IllegalArgumentException e) {
                throw new StoreException.Fatal(
                        "connection '" + ref + "' setting 'allowed-addresses' has " + e.getMessage()
                                + "; list IPv4 or IPv6 ranges in CIDR form (10.20.0.0/16, 127.0.0.1/32, 64:ff9b::/96)",
                        e);
            }
        }
        return ranges;
    }

    private static void positive(String ref, String name, int value) {
        if (value < 1) {
            throw new StoreException.Fatal(
                    "connection '" + ref + "' setting '" + name + "' must be >= 1, got " + value);
        }
    }
}
