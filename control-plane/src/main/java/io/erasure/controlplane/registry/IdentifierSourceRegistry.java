package io.erasure.controlplane.registry;

import io.erasure.support.access.Caller;
import io.erasure.support.access.Role;
import io.erasure.controlplane.actions.ActionsLog;
import io.erasure.controlplane.api.ApiProblem;
import io.erasure.model.identifier.IdentifierSource;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.json.JsonMapper;

/**
 * Identifier sources: the live tables that say which identifiers are deletable and since when.
 * Shared by many datasets, so OWNERs and OPERATORs may register and change them; every change is
 * in the actions log.
 */
@Service
public class IdentifierSourceRegistry {

    private final JdbcTemplate jdbc;
    private final JsonMapper json;
    private final Clock clock;
    private final ActionsLog actions;

    public IdentifierSourceRegistry(JdbcTemplate jdbc, JsonMapper json, Clock clock, ActionsLog actions) {
        this.jdbc = jdbc;
        this.json = json;
        this.clock = clock;
        this.actions = actions;
    }

    @Transactional
    public IdentifierSource register(IdentifierSource source, Caller caller) {
        requireWriter(caller);
        Instant now = clock.instant();
        try {
            jdbc.update("""
                            INSERT INTO identifier_sources (name, spec, revision, created_by, created_at, updated_by, updated_at)
                            VALUES (?, ?::jsonb, 1, ?, ?, ?, ?)""",
                    source.name(), json.writeValueAsString(source), caller.name(), Timestamp.from(now), caller.name(),
                    Timestamp.from(now));
        } catch (DuplicateKeyException e) {
            throw ApiProblem.conflict("an identifier source named '" + source.name() + "' is already registered;"
                    + " update it with PUT /api/identifier-sources/" + source.name());
        }
        actions.record(caller.name(), "identifier-source.registered", "identifier-source:" + source.name(), Map.of());
        return source;
    }

    @Transactional
    public IdentifierSource update(String name, IdentifierSource source, Caller caller) {
        requireWriter(caller);
        if (!name.equals(source.name())) {
            throw ApiProblem.badRequest("name in the body ('" + source.name() + "') must equal the path ('" + name + "')");
        }
        int updated = jdbc.update("""
                        UPDATE identifier_sources SET spec = ?::jsonb, revision = revision + 1, updated_by = ?, updated_at = ?
                        WHERE name = ?""",
                json.writeValueAsString(source), caller.name(), Timestamp.from(clock.instant()), name);
        if (updated == 0) {
            throw ApiProblem.notFound("identifier source '" + name + "'");
        }
        actions.record(caller.name(), "identifier-source.updated", "identifier-source:" + name, Map.of());
        return source;
    }

    public Optional<IdentifierSource> get(String name) {
        return jdbc.query("SELECT spec FROM identifier_sources WHERE name = ?",
                (rs, i) -> json.readValue(rs.getString("spec"), IdentifierSource.class), name).stream().findFirst();
    }

    public IdentifierSource require(String name) {
        return get(name).orElseThrow(() -> ApiProblem.notFound("identifier source '" + name + "'"));
    }

    public List<IdentifierSource> list() {
        return jdbc.query("SELECT spec FROM identifier_sources ORDER BY name",
                (rs, i) -> json.readValue(rs.getString("spec"), IdentifierSource.class));
    }

    private static void requireWriter(Caller caller) {
        if (!caller.has(Role.OWNER) && !caller.has(Role.OPERATOR)) {
            throw ApiProblem.forbidden("only OWNERs and OPERATORs may register or change identifier sources; you have "
                    + caller.roles());
        }
    }
}
