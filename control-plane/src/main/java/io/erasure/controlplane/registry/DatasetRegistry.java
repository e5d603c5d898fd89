package io.erasure.controlplane.registry;

import io.erasure.controlplane.actions.ActionsLog;
import io.erasure.controlplane.ownership.OwnershipRules;
import io.erasure.controlplane.refusal.Refusal;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.StoreKind;
import io.erasure.support.access.Caller;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The registry of datasets. Only an OWNER of a dataset's team changes it; every change is a new
 * revision, kept for the history, and a line in the actions log. Specs are validated when they are
 * built (see DatasetSpec), so nothing malformed reaches this class; here a registration (and every change) is checked
 * against what operators granted the team ({@link OwnershipRules}) and then against the live stores it names
 * ({@link LiveStoreCheck}), before anything is stored. The live check is an HTTP call of up to its timeout, so it runs
 * before the transaction that stores the spec: it holds no connection and no dataset row lock.
 */
@Service
public class DatasetRegistry {

    private static final String SPEC_EDITORS = """
            SELECT changed_by FROM dataset_revisions
            WHERE dataset = ? AND revision > ? AND revision <= ? AND change IN ('REGISTERED', 'UPDATED')""";
    private static final String ADD_REVISION = """
            INSERT INTO dataset_revisions (dataset, revision, change, spec, enabled, changed_by, changed_at)
            VALUES (?, ?, ?, ?::jsonb, ?, ?, ?)""";

    private final JdbcTemplate jdbc;
    private final JsonMapper json;
    private final Clock clock;
    private final ActionsLog actions;
    private final IdentifierSourceRegistry sources;
    private final OwnershipRules ownership;
    private final LiveStoreCheck liveCheck;
    private final TransactionTemplate transactions;

    public DatasetRegistry(
            JdbcTemplate jdbc,
            JsonMapper json,
            Clock clock,
            ActionsLog actions,
            IdentifierSourceRegistry sources,
            OwnershipRules ownership,
            LiveStoreCheck liveCheck,
            TransactionTemplate transactions) {
        this.transactions = transactions;
        this.ownership = ownership;
        this.liveCheck = liveCheck;
        this.jdbc = jdbc;
        this.json = json;
        this.clock = clock;
        this.actions = actions;
        this.sources = sources;
    }

    public DatasetView register(DatasetSpec spec, Caller caller) {
        requireOwner(caller, spec.ownerTeam(), "register a dataset for team '" + spec.ownerTeam() + "'");
        requireBackupFits(spec);
        requireSource(spec);
        requireGranted(spec);
        liveCheck.require(spec);
        return transactions.execute(status -> insert(spec, caller));
    }

    private DatasetView insert(DatasetSpec spec, Caller caller) {
        Instant now = clock.instant();
        Instant nextRun = Schedules.nextAfter(spec.schedule(), now);
        try {
            jdbc.update(
                    """
                            INSERT INTO datasets (name, owner_team, store_kind, spec, enabled, revision, registered_by,
                                                  registered_at, updated_by, updated_at, next_run_at)
                            VALUES (?, ?, ?, ?::jsonb, true, 1, ?, ?, ?, ?, ?)""",
                    spec.name(),
                    spec.ownerTeam(),
                    spec.storeKind().name(),
                    json.writeValueAsString(spec),
                    caller.name(),
                    Timestamp.from(now),
                    caller.name(),
                    Timestamp.from(now),
                    Timestamp.from(nextRun));
        } catch (DuplicateKeyException e) {
            throw Refusal.conflict("a dataset named '" + spec.name() + "' is already registered; choose another name"
                    + " or update it with PUT /api/datasets/" + spec.name());
        }
        addRevision(spec.name(), 1, "REGISTERED", spec, true, caller, now);
        actions.record(caller.name(), "dataset.registered", subject(spec.name()), Map.of("revision", 1));
        return get(spec.name()).orElseThrow();
    }

    public DatasetView update(String name, DatasetSpec spec, Caller caller) {
        if (!name.equals(spec.name())) {
            throw Refusal.badRequest("name in the body ('" + spec.name() + "') must equal the dataset in the path ('"
                    + name + "'); a dataset cannot be renamed, register a new one instead");
        }
        requireMayChange(require(name), caller); // before the live check: a caller who may not change it learns nothing
        requireOwner(caller, spec.ownerTeam(), "move dataset '" + name + "' to team '" + spec.ownerTeam() + "'");
        requireBackupFits(spec);
        requireSource(spec);
        requireGranted(spec);
        liveCheck.require(spec);
        return transactions.execute(status -> store(name, spec, caller));
    }

    private DatasetView store(String name, DatasetSpec spec, Caller caller) {
        DatasetView current = lockForChange(name, caller); // its team may have changed since the check above
        Instant now = clock.instant();
        int revision = current.revision() + 1;
        jdbc.update(
                """
                        UPDATE datasets SET owner_team = ?, store_kind = ?, spec = ?::jsonb, revision = ?,
                                            updated_by = ?, updated_at = ?, next_run_at = ?
                        WHERE name = ?""",
                spec.ownerTeam(),
                spec.storeKind().name(),
                json.writeValueAsString(spec),
                revision,
                caller.name(),
                Timestamp.from(now),
                Timestamp.from(Schedules.nextAfter(spec.schedule(), now)),
                name);
        addRevision(name, revision, "UPDATED", spec, current.enabled(), caller, now);
        actions.record(caller.name(), "dataset.updated", subject(name), Map.of("revision", revision));
        return get(name).orElseThrow();
    }

    @Transactional
    public DatasetView setEnabled(String name, boolean enabled, Caller caller) {
        DatasetView current = lockForChange(name, caller);
        if (current.enabled() == enabled) {
            return current;
        }
        Instant now = clock.instant();
        int revision = current.revision() + 1;
        jdbc.update(
                "UPDATE datasets SET enabled = ?, revision = ?, updated_by = ?, updated_at = ? WHERE name = ?",
                enabled,
                revision,
                caller.name(),
                Timestamp.from(now),
                name);
        addRevision(name, revision, enabled ? "ENABLED" : "DISABLED", current.spec(), enabled, caller, now);
        actions.record(
                caller.name(),
                enabled ? "dataset.enabled" : "dataset.disabled",
                subject(name),
                Map.of("revision", revision));
        return get(name).orElseThrow();
    }

    public Optional<DatasetView> get(String name) {
        return jdbc.query("SELECT * FROM datasets WHERE name = ?", this::view, name).stream()
                .findFirst();
    }

    public DatasetView require(String name) {
        return get(name).orElseThrow(() -> Refusal.notFound("dataset '" + name + "'"));
    }

    /** Datasets matching all given filters; {@code text} matches name, table, namespace or team. */
    public List<DatasetView> search(String text, String team, StoreKind kind, Boolean enabled) {
        String pattern =
                text == null || text.isBlank() ? null : "%" + text.trim().toLowerCase() + "%";
        return jdbc.query(
                """
                        SELECT * FROM datasets
                        WHERE (?::text IS NULL OR name LIKE ? OR spec ->> 'table' LIKE ? OR spec ->> 'namespace' LIKE ?
                               OR owner_team LIKE ?)
                          AND (?::text IS NULL OR owner_team = ?)
                          AND (?::text IS NULL OR store_kind = ?)
                          AND (?::boolean IS NULL OR enabled = ?)
                        ORDER BY name""",
                this::view,
                pattern,
                pattern,
                pattern,
                pattern,
                pattern,
                team,
                team,
                kind == null ? null : kind.name(),
                kind == null ? null : kind.name(),
                enabled,
                enabled);
    }

    /**
     * Who changed the spec of {@code name} in revisions after {@code afterRevision} (null: from its registration) up to
     * {@code upToRevision}: registrations and updates, not enabling or disabling.
     */
    public Set<String> specEditors(String name, Integer afterRevision, int upToRevision) {
        return new TreeSet<>(jdbc.queryForList(
                SPEC_EDITORS, String.class, name, afterRevision == null ? 0 : afterRevision, upToRevision));
    }

    public List<DatasetRevision> history(String name) {
        require(name);
        return jdbc.query(
                "SELECT * FROM dataset_revisions WHERE dataset = ? ORDER BY revision",
                (rs, i) -> new DatasetRevision(
                        rs.getInt("revision"),
                        rs.getString("change"),
                        json.readValue(rs.getString("spec"), DatasetSpec.class),
                        rs.getBoolean("enabled"),
                        rs.getString("changed_by"),
                        rs.getTimestamp("changed_at").toInstant()),
                name);
    }

    private DatasetView lockForChange(String name, Caller caller) {
        DatasetView current = jdbc.query("SELECT * FROM datasets WHERE name = ? FOR UPDATE", this::view, name).stream()
                .findFirst()
                .orElseThrow(() -> Refusal.notFound("dataset '" + name + "'"));
        requireMayChange(current, caller);
        return current;
    }

    private static void requireMayChange(DatasetView current, Caller caller) {
        String team = current.spec().ownerTeam();
        requireOwner(caller, team, "change dataset '" + current.spec().name() + "' of team '" + team + "'");
    }

    private static void requireBackupFits(DatasetSpec spec) {
        try {
            spec.requireBackupFits();
        } catch (IllegalArgumentException e) {
            throw Refusal.badRequest(e.getMessage());
        }
    }

    private void requireSource(DatasetSpec spec) {
        if (sources.get(spec.identifierSource()).isEmpty()) {
            throw Refusal.badRequest("identifierSource '" + spec.identifierSource() + "' is not registered; register it"
                    + " first with POST /api/identifier-sources");
        }
    }

    /**
     * Refuses a spec whose places its team has no grant for (403, naming the rule), or whose limits are above the
     * operators' ceiling (400).
     */
    private void requireGranted(DatasetSpec spec) {
        ownership.refusal(spec).ifPresent(refusal -> {
            throw Refusal.forbidden(refusal);
        });
        ownership.limitsRefusal(spec.limits()).ifPresent(refusal -> {
            throw Refusal.badRequest(refusal);
        });
    }

    /** Fails with 403 unless {@code caller} is an OWNER of {@code team}; {@code what} completes "may ...". */
    public static void requireOwner(Caller caller, String team, String what) {
        if (!caller.ownsTeam(team)) {
            throw Refusal.forbidden(
                    "only an OWNER of team '" + team + "' may " + what + "; you are '" + caller.name() + "' with roles "
                            + caller.roles() + (caller.team() == null ? "" : " in team '" + caller.team() + "'"));
        }
    }

    private void addRevision(
            String name, int revision, String change, DatasetSpec spec, boolean enabled, Caller caller, Instant at) {
        jdbc.update(
                ADD_REVISION,
                name,
                revision,
                change,
                json.writeValueAsString(spec),
                enabled,
                caller.name(),
                Timestamp.from(at));
    }

    private DatasetView view(ResultSet rs, int row) throws SQLException {
        Timestamp next = rs.getTimestamp("next_run_at");
        return new DatasetView(
                json.readValue(rs.getString("spec"), DatasetSpec.class),
                rs.getBoolean("enabled"),
                rs.getInt("revision"),
                rs.getString("registered_by"),
                rs.getTimestamp("registered_at").toInstant(),
                rs.getString("updated_by"),
                rs.getTimestamp("updated_at").toInstant(),
                next == null ? null : next.toInstant());
    }

    static String subject(String dataset) {
        return "dataset:" + dataset;
    }
}
