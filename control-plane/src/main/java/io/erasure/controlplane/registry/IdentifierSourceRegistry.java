package io.erasure.controlplane.registry;

import io.erasure.controlplane.actions.ActionsLog;
import io.erasure.controlplane.ownership.OwnershipRules;
import io.erasure.controlplane.refusal.Refusal;
import io.erasure.model.identifier.IdentifierSource;
import io.erasure.support.access.Caller;
import io.erasure.support.access.Role;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.json.JsonMapper;

/**
 * Identifier sources: the live tables that say which identifiers are deletable and since when. A source decides what
 * every dataset using it deletes, so it belongs to a team ({@link IdentifierSource#ownerTeam()}): only that team's
 * OWNERs, or an OPERATOR, change it; a source without a team is the operators' alone. Its table and backups must be
 * granted to its team (see {@link OwnershipRules}). Every change is a revision, kept like a dataset's, and a line in
 * the actions log; a run freezes the revision it started with, and the first run after a change waits for approval.
 */
@Service
public class IdentifierSourceRegistry {

    private static final String SOURCE_EDITORS = """
            SELECT changed_by FROM identifier_source_revisions WHERE source = ? AND revision > ? AND revision <= ?""";

    private final JdbcTemplate jdbc;
    private final JsonMapper json;
    private final Clock clock;
    private final ActionsLog actions;
    private final OwnershipRules ownership;

    public IdentifierSourceRegistry(
            JdbcTemplate jdbc, JsonMapper json, Clock clock, ActionsLog actions, OwnershipRules ownership) {
        this.jdbc = jdbc;
        this.json = json;
        this.clock = clock;
        this.actions = actions;
        this.ownership = ownership;
    }

    /** A source with the revision it is at and who last changed it. */
    public record Current(IdentifierSource source, int revision, String updatedBy) {}

    /** One revision of a source. */
    public record SourceRevision(
            int revision, String change, IdentifierSource source, String changedBy, Instant changedAt) {}

    @Transactional
    public IdentifierSource register(IdentifierSource source, Caller caller) {
        IdentifierSource owned = withOwner(source, caller, null);
        requireGranted(owned);
        Instant now = clock.instant();
        try {
            jdbc.update(
                    """
                            INSERT INTO identifier_sources (name, spec, owner_team, revision, created_by, created_at,
                                                            updated_by, updated_at)
                            VALUES (?, ?::jsonb, ?, 1, ?, ?, ?, ?)""",
                    owned.name(),
                    json.writeValueAsString(owned),
                    owned.ownerTeam(),
                    caller.name(),
                    Timestamp.from(now),
                    caller.name(),
                    Timestamp.from(now));
        } catch (DuplicateKeyException e) {
            throw Refusal.conflict("an identifier source named '" + owned.name() + "' is already registered;"
                    + " update it with PUT /api/identifier-sources/" + owned.name());
        }
        addRevision(owned, 1, "REGISTERED", caller, now);
        actions.record(caller.name(), "identifier-source.registered", subject(owned.name()), ownerDetail(owned, 1));
        return owned;
    }

    @Transactional
    public IdentifierSource update(String name, IdentifierSource source, Caller caller) {
        if (!name.equals(source.name())) {
            throw Refusal.badRequest("name in the body ('" + source.name() + "') must equal the path ('" + name + "')");
        }
        Current current = jdbc
                .query(
                        "SELECT spec, revision, updated_by FROM identifier_sources WHERE name = ? FOR UPDATE",
                        (rs, i) -> new Current(
                                json.readValue(rs.getString("spec"), IdentifierSource.class),
                                rs.getInt("revision"),
                                rs.getString("updated_by")),
                        name)
                .stream()
                .findFirst()
                .orElseThrow(() -> Refusal.notFound("identifier source '" + name + "'"));
        requireMayChange(current.source(), caller);
        IdentifierSource owned = withOwner(source, caller, current.source().ownerTeam());
        requireGranted(owned);
        if (owned.equals(current.source())) {
            return owned;
        }
        int revision = current.revision() + 1;
        Instant now = clock.instant();
        jdbc.update(
                """
                        UPDATE identifier_sources SET spec = ?::jsonb, owner_team = ?, revision = ?, updated_by = ?,
                                                      updated_at = ?
                        WHERE name = ?""",
                json.writeValueAsString(owned),
                owned.ownerTeam(),
                revision,
                caller.name(),
                Timestamp.from(now),
                name);
        addRevision(owned, revision, "UPDATED", caller, now);
        actions.record(caller.name(), "identifier-source.updated", subject(name), ownerDetail(owned, revision));
        return owned;
    }

    public Optional<IdentifierSource> get(String name) {
        return current(name).map(Current::source);
    }

    /** The source with its revision and last editor, or empty. */
    public Optional<Current> current(String name) {
        return jdbc
                .query(
                        "SELECT spec, revision, updated_by FROM identifier_sources WHERE name = ?",
                        (rs, i) -> new Current(
                                json.readValue(rs.getString("spec"), IdentifierSource.class),
                                rs.getInt("revision"),
                                rs.getString("updated_by")),
                        name)
                .stream()
                .findFirst();
    }

    public IdentifierSource require(String name) {
        return get(name).orElseThrow(() -> Refusal.notFound("identifier source '" + name + "'"));
    }

    public List<IdentifierSource> list() {
        return jdbc.query(
                "SELECT spec FROM identifier_sources ORDER BY name",
                (rs, i) -> json.readValue(rs.getString("spec"), IdentifierSource.class));
    }

    public List<SourceRevision> history(String name) {
        require(name);
        return jdbc.query(
                "SELECT * FROM identifier_source_revisions WHERE source = ? ORDER BY revision",
                (rs, i) -> new SourceRevision(
                        rs.getInt("revision"),
                        rs.getString("change"),
                        json.readValue(rs.getString("spec"), IdentifierSource.class),
                        rs.getString("changed_by"),
                        rs.getTimestamp("changed_at").toInstant()),
                name);
    }

    /**
     * Who changed source {@code name} in revisions after {@code afterRevision} (null: from the first) up to
     * {@code upTo}.
     */
    public Set<String> editors(String name, Integer afterRevision, int upTo) {
        return new TreeSet<>(
                jdbc.queryForList(SOURCE_EDITORS, String.class, name, afterRevision == null ? 0 : afterRevision, upTo));
    }

    /**
     * The source as it is to be stored: an OWNER's belongs to their own team (the body may name it or leave it out); an
     * OPERATOR's to the team the body names, or to the operators. On a change, a body without a team keeps the current.
     */
    private static IdentifierSource withOwner(IdentifierSource source, Caller caller, String currentTeam) {
        String team = source.ownerTeam() != null
                ? source.ownerTeam()
                : currentTeam != null ? currentTeam : caller.has(Role.OPERATOR) ? null : caller.team();
        if (caller.has(Role.OPERATOR)) {
            return source.ownedBy(team);
        }
        if (!caller.has(Role.OWNER) || caller.team() == null) {
            throw Refusal.forbidden("only OWNERs (for their team) and OPERATORs may register or change identifier"
                    + " sources; you are '" + caller.name() + "' with roles " + caller.roles());
        }
        if (!caller.ownsTeam(team)) {
            throw Refusal.forbidden("an OWNER registers identifier sources for their own team only: '" + caller.name()
                    + "' is in team '" + caller.team() + "', the source names ownerTeam '" + team + "'");
        }
        return source.ownedBy(team);
    }

    private static void requireMayChange(IdentifierSource current, Caller caller) {
        if (caller.has(Role.OPERATOR)) {
            return;
        }
        if (current.ownerTeam() == null || !caller.ownsTeam(current.ownerTeam())) {
            throw Refusal.forbidden("identifier source '" + current.name() + "' belongs to "
                    + (current.ownerTeam() == null ? "the operators" : "team '" + current.ownerTeam() + "'")
                    + ": only " + (current.ownerTeam() == null ? "" : "its OWNERs or ") + "an OPERATOR may change it;"
                    + " you are '" + caller.name() + "' with roles " + caller.roles()
                    + (caller.team() == null ? "" : " in team '" + caller.team() + "'"));
        }
    }

    private void requireGranted(IdentifierSource source) {
        if (source.ownerTeam() != null) {
            ownership.refusal(source, source.ownerTeam()).ifPresent(refusal -> {
                throw Refusal.forbidden(refusal);
            });
        }
    }

    private void addRevision(IdentifierSource source, int revision, String change, Caller caller, Instant at) {
        jdbc.update(
                """
                        INSERT INTO identifier_source_revisions (source, revision, change, spec, owner_team, changed_by,
                                                                 changed_at)
                        VALUES (?, ?, ?, ?::jsonb, ?, ?, ?)""",
                source.name(),
                revision,
                change,
                json.writeValueAsString(source),
                source.ownerTeam(),
                caller.name(),
                Timestamp.from(at));
    }

    private static Map<String, Object> ownerDetail(IdentifierSource source, int revision) {
        return Map.of("revision", revision, "ownerTeam", Objects.requireNonNullElse(source.ownerTeam(), "(operators)"));
    }

    static String subject(String source) {
        return "identifier-source:" + source;
    }
}
