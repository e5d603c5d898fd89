package io.erasure.controlplane.ownership;

import io.erasure.model.dataset.DeletionLimits;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What operators allow teams to register ({@code erasure.ownership}): the places each team may delete from, and the
 * ceiling that owners' own deletion limits must stay under. Nothing is granted by default: a registration no grant
 * covers is refused, naming the rule that refused it.
 *
 * @param grants        each grants one team places on one connection, and backup prefixes in the platform bucket
 * @param limitsCeiling the most a run may delete without an OPERATOR approving it, whatever its owner's limits say
 */
@ConfigurationProperties("erasure.ownership")
public record OwnershipProperties(
        List<Grant> grants, @DefaultValue LimitsCeiling limitsCeiling) {

    /** A connection value that stands for every connection: for local and test set-ups only. */
    public static final String ANY = "*";

    public OwnershipProperties {
        grants = grants == null ? List.of() : List.copyOf(grants);
        for (int i = 0; i < grants.size(); i++) {
            grants.get(i).check("erasure.ownership.grants[" + i + "]");
        }
    }

    /**
     * One team's places on one connection.
     *
     * @param team           the owner team this grant is for
     * @param connection     the connection ref ({@code erasure.connections.<ref>}) it applies to, or {@code *}
     * @param namespaces     keyspaces or schemas whose every table the team may register ({@code *}: any)
     * @param tables         single tables, as {@code namespace.table}
     * @param keyPrefixes    for key-addressed stores (Redis, S3 objects): the literal start of a key template; for
     *                       search indexes (OpenSearch): the start of the index name
     *                       ({@code profile:} covers {@code profile:{customer_id}}); {@code *}: any
     * @param urlPrefixes    for HTTP callbacks: absolute http(s) URLs whose path ends in {@code /} (so the host is
     *                       whole) that callback and check URLs must start with; {@code *}: any
     * @param backupPrefixes S3 key prefixes in the platform bucket (under {@code backups/}; plain string prefixes, so
     *                       end one with {@code /} to grant a single folder) under which the team's backups may live;
     *                       not tied to the connection
     */
    public record Grant(
            String team,
            String connection,
            List<String> namespaces,
            List<String> tables,
            List<String> keyPrefixes,
            List<String> urlPrefixes,
            List<String> backupPrefixes) {

        public Grant {
            namespaces = namespaces == null ? List.of() : List.copyOf(namespaces);
            tables = tables == null ? List.of() : List.copyOf(tables);
            keyPrefixes = keyPrefixes == null ? List.of() : List.copyOf(keyPrefixes);
            urlPrefixes = urlPrefixes == null ? List.of() : List.copyOf(urlPrefixes);
            backupPrefixes = backupPrefixes == null ? List.of() : List.copyOf(backupPrefixes);
        }

        void check(String property) {
            if (team == null || team.isBlank()) {
                throw new IllegalArgumentException(property + ".team is required: the owner team the grant is for");
            }
            if ((connection == null || connection.isBlank())
                    && !(namespaces.isEmpty() && tables.isEmpty() && keyPrefixes.isEmpty() && urlPrefixes.isEmpty())) {
                throw new IllegalArgumentException(property + ".connection is required with namespaces, tables,"
                        + " key-prefixes or url-prefixes: name the connection ref they are on (or * for every"
                        + " connection)");
            }
            for (String table : tables) {
                if (!table.matches("[A-Za-z_][A-Za-z0-9_]*\\.[A-Za-z_][A-Za-z0-9_]*")) {
                    throw new IllegalArgumentException(
                            property + ".tables must be written namespace.table, got '" + table + "'");
                }
            }
            for (String prefix : keyPrefixes) {
                if (prefix.isBlank()) {
                    throw new IllegalArgumentException(
                            property + ".key-prefixes has a blank entry, which would cover every"
                                    + " key: name the prefix (e.g. profile:), or * if the team may use every key on the"
                                    + " connection");
                }
            }
            for (String prefix : urlPrefixes) {
                if (!ANY.equals(prefix)) {
                    requireUrlPrefix(property + ".url-prefixes", prefix);
                }
            }
            for (String prefix : backupPrefixes) {
                if (!prefix.startsWith("backups/") || prefix.contains("..")) {
                    throw new IllegalArgumentException(property + ".backup-prefixes must be S3 prefixes under backups/,"
                            + " e.g. backups/payments/ (end it with / to grant one folder), got '" + prefix + "'");
                }
            }
        }

        boolean appliesTo(String ownerTeam, String connectionRef) {
            return team.equals(ownerTeam) && (ANY.equals(connection) || connectionRef.equals(connection));
        }

        private static void requireUrlPrefix(String property, String prefix) {
            URI uri;
            try {
                uri = new URI(prefix);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException(property + " must be absolute http(s) URLs, got '" + prefix + "'");
            }
            // a prefix must end the host: "https://api.payments" would also cover "https://api.payments.evil.example/"
            if (!("https".equals(uri.getScheme()) || "http".equals(uri.getScheme()))
                    || uri.getHost() == null
                    || uri.getUserInfo() != null
                    || uri.getRawPath() == null
                    || !uri.getRawPath().endsWith("/")) {
                throw new IllegalArgumentException(property + " must be absolute http(s) URLs with a path ending in /,"
                        + " e.g. https://api.payments.example.com/erasure/, got '" + prefix + "'");
            }
        }
    }

    /**
     * The operators' ceiling on owners' limits ({@code erasure.ownership.limits-ceiling}): an owner's
     * {@code maxFraction} and {@code maxRows} may not exceed these, and a run whose final set exceeds them waits for an
     * OPERATOR even when its owner's limits would let it go (a dataset with no {@code maxRows} is still held above
     * {@code max-rows}).
     */
    public record LimitsCeiling(
            @DefaultValue("0.5") double maxFraction,
            @DefaultValue("1000000") long maxRows) {

        public LimitsCeiling {
            if (!(maxFraction > 0 && maxFraction <= 1)) {
                throw new IllegalArgumentException(
                        "erasure.ownership.limits-ceiling.max-fraction must be in (0, 1], got " + maxFraction);
            }
            if (maxRows < 1) {
                throw new IllegalArgumentException(
                        "erasure.ownership.limits-ceiling.max-rows must be >= 1, got " + maxRows);
            }
        }

        public DeletionLimits asLimits() {
            return new DeletionLimits(maxFraction, maxRows);
        }
    }
}
