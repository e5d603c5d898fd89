package io.erasure.controlplane.registry;

import io.erasure.controlplane.actions.ActionsLog;
import io.erasure.model.check.Require;
import io.erasure.model.task.DeletionTask;
import io.erasure.support.access.Caller;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * What forward deletion does to each dataset. Kept beside the registry rather than in the dataset spec,
 * which runs freeze: changing it affects requests from then on, never a run. Only an OWNER of the
 * dataset's team sets it; every change is in the actions log. ANONYMISE names the columns to clear; they are
 * checked against the dataset's key here and against the live table by the store when the first task runs.
 */
@Service
public class ForwardPolicies {

    private static final TypeReference<List<String>> COLUMNS = new TypeReference<>() {};

    private final JdbcTemplate jdbc;
    private final JsonMapper json;
    private final DatasetRegistry datasets;
    private final ActionsLog actions;
    private final Clock clock;

    public ForwardPolicies(
            JdbcTemplate jdbc, JsonMapper json, DatasetRegistry datasets, ActionsLog actions, Clock clock) {
        this.jdbc = jdbc;
        this.json = json;
        this.datasets = datasets;
        this.actions = actions;
        this.clock = clock;
    }

    /** The dataset's policy; DELETE when its owner never set one. */
    public Policy policyOf(String dataset) {
        return jdbc
                .query(
                        "SELECT action, clear_columns::text FROM forward_policies WHERE dataset = ?",
                        (rs, i) -> new Policy(
                                dataset,
                                ForwardAction.valueOf(rs.getString(1)),
                                json.readValue(rs.getString(2), COLUMNS)),
                        dataset)
                .stream()
                .findFirst()
                .orElse(new Policy(dataset, ForwardAction.DELETE, List.of()));
    }

    @Transactional
    public Policy set(String dataset, PolicyBody body, Caller caller) {
        DatasetView view = datasets.require(dataset);
        DatasetRegistry.requireOwner(
                caller, view.spec().ownerTeam(), "set the forward-deletion policy of dataset '" + dataset + "'");
        List<String> columns = body.clearColumns();
        if (body.action() == ForwardAction.ANONYMISE) {
            if (view.spec().target() != null) {
                throw new IllegalArgumentException(
                        "dataset '" + dataset + "' is a " + view.spec().storeKind()
                                + " dataset without columns; it cannot be anonymised,"
                                + " only deleted (DELETE) or kept (KEEP_SNAPSHOT)");
            }
            DeletionTask.requireClearable(view.spec(), columns);
        }
        jdbc.update(
                """
                        INSERT INTO forward_policies (dataset, action, clear_columns, updated_by, updated_at)
                        VALUES (?, ?, ?::jsonb, ?, ?)
                        ON CONFLICT (dataset) DO UPDATE SET action = EXCLUDED.action,
                            clear_columns = EXCLUDED.clear_columns,
                            updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at""",
                dataset,
                body.action().name(),
                json.writeValueAsString(columns),
                caller.name(),
                Timestamp.from(clock.instant()));
        actions.record(
                caller.name(),
                "dataset.forward-policy",
                "dataset:" + dataset,
                Map.of("action", body.action().name(), "clearColumns", columns));
        return new Policy(dataset, body.action(), columns);
    }

    public Policy get(String dataset) {
        datasets.require(dataset);
        return policyOf(dataset);
    }

    /**
     * A dataset's forward-deletion policy, and the answer of {@code PUT|GET /api/datasets/{name}/forward-policy}.
     *
     * @param clearColumns the columns ANONYMISE sets to null (never key columns); empty for the other actions
     */
    public record Policy(String dataset, ForwardAction action, List<String> clearColumns) {

        public Policy {
            clearColumns = List.copyOf(clearColumns);
        }

        /** The columns a forward task of this dataset clears: empty means delete the rows. */
        public List<String> taskClearColumns() {
            return action == ForwardAction.ANONYMISE ? clearColumns : List.of();
        }
    }

    /**
     * The body of {@code PUT /api/datasets/{name}/forward-policy}; at most {@value #MAX_CLEAR_COLUMNS} clear columns.
     */
    public record PolicyBody(ForwardAction action, List<String> clearColumns) {

        /** Every column of a wide table, yet a policy stays a small document that each forward task carries. */
        public static final int MAX_CLEAR_COLUMNS = 256;

        public PolicyBody {
            if (action == null) {
                throw new IllegalArgumentException("action is required: one of DELETE, KEEP_SNAPSHOT, ANONYMISE");
            }
            clearColumns =
                    clearColumns == null ? List.of() : Require.listOf("clearColumns", clearColumns, MAX_CLEAR_COLUMNS);
            if (action == ForwardAction.ANONYMISE && clearColumns.isEmpty()) {
                throw new IllegalArgumentException(
                        "clearColumns is required for ANONYMISE: the non-key columns to set to"
                                + " null, e.g. [\"email\", \"name\"]");
            }
            if (action != ForwardAction.ANONYMISE && !clearColumns.isEmpty()) {
                throw new IllegalArgumentException("clearColumns applies only to ANONYMISE, got it with " + action);
            }
        }
    }
}
