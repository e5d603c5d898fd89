package io.erasure.controlplane.ownership;

import io.erasure.controlplane.ownership.OwnershipProperties.Grant;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.identifier.IdentifierSource;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.springframework.stereotype.Component;

/**
 * Decides whether a team may register what a spec names: every place it deletes from (its table or key prefix, each
 * copy's table, key prefix or callback URL), the backup prefix it is audited from, and limits under the operators'
 * ceiling. A refusal names the place, the rule it needed and what the team has, so an operator knows which grant to
 * add. Pure logic over {@link OwnershipProperties}.
 */
@Component
public class OwnershipRules {

    private final OwnershipProperties properties;

    public OwnershipRules(OwnershipProperties properties) {
        this.properties = properties;
    }

    /**
     * Why {@code spec} may not be registered (or run) for its owner team, or empty if every place it names is granted.
     * Its limits are checked apart ({@link #limitsRefusal}).
     */
    public Optional<String> refusal(DatasetSpec spec) {
        String team = spec.ownerTeam();
        List<Place> places = new ArrayList<>();
        if (spec.storeKind().tabular()) {
            places.add(
                    Place.table("dataset '" + spec.name() + "'", spec.connectionRef(), spec.namespace(), spec.table()));
        } else {
            places.addAll(Place.of("dataset '" + spec.name() + "'", spec.connectionRef(), spec.target()));
        }
        for (DatasetCopy copy : spec.copies()) {
            places.addAll(Place.of("copy '" + copy.name() + "'", copy.connectionRef(), copy.target()));
        }
        for (Place place : places) {
            Optional<String> refused = refusal(team, place);
            if (refused.isPresent()) {
                return refused;
            }
        }
        return backupRefusal(team, "dataset '" + spec.name() + "'", spec.backup());
    }

    /** Why team {@code team} may not own identifier source {@code source}, or empty. */
    public Optional<String> refusal(IdentifierSource source, String team) {
        String what = "identifier source '" + source.name() + "'";
        return refusal(team, Place.table(what, source.connectionRef(), source.namespace(), source.table()))
                .or(() -> backupRefusal(team, what, source.backup()));
    }

    /** Why an owner's limits are above the operators' ceiling, or empty. */
    public Optional<String> limitsRefusal(DeletionLimits limits) {
        OwnershipProperties.LimitsCeiling ceiling = properties.limitsCeiling();
        if (limits.maxFraction() != null && limits.maxFraction() > ceiling.maxFraction()) {
            return Optional.of("limits.maxFraction " + limits.maxFraction() + " is above the operators' ceiling "
                    + ceiling.maxFraction() + " (erasure.ownership.limits-ceiling.max-fraction): set it between 0 and "
                    + ceiling.maxFraction() + "; larger runs wait for an OPERATOR's approval");
        }
        if (limits.maxRows() != null && limits.maxRows() > ceiling.maxRows()) {
            return Optional.of("limits.maxRows " + limits.maxRows() + " is above the operators' ceiling "
                    + ceiling.maxRows() + " (erasure.ownership.limits-ceiling.max-rows): set it between 0 and "
                    + ceiling.maxRows() + "; larger runs wait for an OPERATOR's approval");
        }
        return Optional.empty();
    }

    /** The ceiling as limits: a final set exceeding them waits for an OPERATOR, whatever the owner's limits. */
    public DeletionLimits ceiling() {
        return properties.limitsCeiling().asLimits();
    }

    private Optional<String> refusal(String team, Place place) {
        if (place.unsafe() != null) {
            return Optional.of("team '" + team + "' may not register " + place.what() + ": " + place.unsafe());
        }
        List<Grant> grants = properties.grants().stream()
                .filter(g -> g.appliesTo(team, place.connection()))
                .toList();
        if (grants.stream().anyMatch(place::coveredBy)) {
            return Optional.empty();
        }
        String has = grants.isEmpty()
                ? "no grant on connection '" + place.connection() + "'"
                : "on '" + place.connection() + "' only " + place.granted(grants);
        return Optional.of("team '" + team + "' may not register " + place.what() + " at " + place.describe()
                + " on connection '" + place.connection() + "': no grant in erasure.ownership.grants covers it (team '"
                + team + "' has " + has + "); an OPERATOR adds a grant {team: " + team + ", connection: "
                + place.connection() + ", " + place.suggestion() + "} if the team owns it");
    }

    private Optional<String> backupRefusal(String team, String what, BackupLocation backup) {
        List<String> prefixes = properties.grants().stream()
                .filter(g -> g.team().equals(team))
                .flatMap(g -> g.backupPrefixes().stream())
                .toList();
        if (prefixes.stream().anyMatch(backup.prefix()::startsWith)) {
            return Optional.empty();
        }
        return Optional.of("team '" + team + "' may not read backups of " + what + " from '" + backup.prefix()
                + "': no grant in erasure.ownership.grants has a backup-prefixes entry it starts with (team '" + team
                + "' has " + (prefixes.isEmpty() ? "none" : prefixes) + "); use a prefix of your team's, or an OPERATOR"
                + " adds {team: " + team + ", backup-prefixes: [" + backup.prefix() + "]} if the team owns it");
    }

    /** A place a spec deletes from: a table, the literal start of a key template, or a callback URL. */
    private record Place(String what, String connection, Kind kind, String value, String unsafe) {

        Place(String what, String connection, Kind kind, String value) {
            this(what, connection, kind, value, null);
        }

        enum Kind {
            TABLE,
            KEY_PREFIX,
            URL,
            INDEX
        }

        static Place table(String what, String connection, String namespace, String table) {
            return new Place(what, connection, Kind.TABLE, namespace + "." + table);
        }

        /** The places a target names: its table, its keys, or its callback and check URLs (both must be granted). */
        static List<Place> of(String what, String connection, CopyTarget target) {
            if (target instanceof CopyTarget.TableMapping mapping) {
                return List.of(table(what, connection, mapping.namespace(), mapping.table()));
            }
            if (target instanceof CopyTarget.KeyTemplate template) {
                return List.of(new Place(what, connection, Kind.KEY_PREFIX, literalStart(template.template())));
            }
            if (target instanceof CopyTarget.SearchIndex index) {
                // index families are named by prefix (payments-v1, payments-v2): granted by key-prefixes
                return List.of(new Place(what, connection, Kind.INDEX, index.index()));
            }
            if (target instanceof CopyTarget.HttpCallback callback) {
                List<Place> urls = new ArrayList<>(List.of(url(what, connection, callback.url())));
                if (callback.checkUrl() != null) {
                    urls.add(url(what + " (checkUrl)", connection, callback.checkUrl()));
                }
                return urls;
            }
            throw new IllegalArgumentException(what + " has a target of an unknown kind: " + target);
        }

        boolean coveredBy(Grant grant) {
            return switch (kind) {
                case TABLE ->
                    grant.tables().contains(value)
                            || grant.namespaces().contains(OwnershipProperties.ANY)
                            || grant.namespaces().contains(value.substring(0, value.indexOf('.')));
                case KEY_PREFIX, INDEX ->
                    grant.keyPrefixes().stream()
                            .anyMatch(p -> p.equals(OwnershipProperties.ANY) || value.startsWith(p));
                case URL ->
                    grant.urlPrefixes().stream()
                            .anyMatch(p -> p.equals(OwnershipProperties.ANY) || value.startsWith(p));
            };
        }

        String describe() {
            return switch (kind) {
                case TABLE -> "table " + value;
                case KEY_PREFIX -> "keys starting '" + value + "'";
                case URL -> "URL " + value;
                case INDEX -> "search index " + value;
            };
        }

        String granted(List<Grant> grants) {
            Function<Grant, List<String>> field = switch (kind) {
                case TABLE ->
                    g -> {
                        List<String> both = new ArrayList<>(
                                g.namespaces().stream().map(n -> n + ".*").toList());
                        both.addAll(g.tables());
                        return both;
                    };
                case KEY_PREFIX, INDEX -> Grant::keyPrefixes;
                case URL -> Grant::urlPrefixes;
            };
            return String.valueOf(grants.stream()
                    .flatMap(g -> field.apply(g).stream())
                    .distinct()
                    .toList());
        }

        String suggestion() {
            return switch (kind) {
                case TABLE -> "tables: [" + value + "]";
                case KEY_PREFIX, INDEX -> "key-prefixes: [" + value + "]";
                case URL -> "url-prefixes: [<scheme>://<host>/<path>/]";
            };
        }

        /**
         * A callback URL. A string prefix says nothing about a URL whose path climbs out of it once a server or proxy
         * normalises it ({@code /payments/../orders}, {@code %2e%2e}, {@code %252e%252e}, a {@code \\}), so such a URL
         * is covered by no grant. Only its path counts, decoded until it no longer changes: a query or fragment
         * ({@code ?next=%2F..}) is the endpoint's business, not a place.
         */
        static Place url(String what, String connection, String url) {
            String path = pathOf(url);
            String decoded = path;
            boolean climbs;
            try {
                for (int round = 0; round < 5; round++) {
                    String once = URLDecoder.decode(decoded.replace("+", "%2B"), StandardCharsets.UTF_8);
                    if (once.equals(decoded)) {
                        break;
                    }
                    decoded = once;
                }
                climbs = decoded.contains("\\")
                        || Arrays.stream(decoded.split("/", -1))
                                .anyMatch(segment -> segment.equals("..") || segment.equals("."));
            } catch (IllegalArgumentException malformed) {
                climbs = true; // a '%' no server decodes alike
            }
            return new Place(
                    what,
                    connection,
                    Kind.URL,
                    literalStart(url),
                    climbs
                            ? "its URL " + url
                                    + " has a dot segment or an encoded '.', '/' or '\\' in its path, which would leave"
                                    + " any granted prefix once normalised: register the URL as the endpoint receives"
                                    + " it"
                            : null);
        }

        /** The path of {@code url}: after its scheme and authority, before its query or fragment. */
        private static String pathOf(String url) {
            int scheme = url.indexOf("://");
            int start = scheme < 0 ? 0 : scheme + 3;
            int path = start;
            while (path < url.length() && "/?#".indexOf(url.charAt(path)) < 0) {
                path++;
            }
            int end = path;
            while (end < url.length() && "?#".indexOf(url.charAt(end)) < 0) {
                end++;
            }
            return url.substring(path, end);
        }

        /** The template's text before its first placeholder: what a key or URL surely starts with. */
        private static String literalStart(String template) {
            int brace = template.indexOf('{');
            return brace < 0 ? template : template.substring(0, brace);
        }
    }
}
