package io.erasure.controlplane.forward;

import io.erasure.controlplane.actions.ActionsLog;
import io.erasure.controlplane.api.ApiProblem;
import io.erasure.controlplane.registry.DatasetRegistry;
import io.erasure.controlplane.registry.DatasetView;
import io.erasure.support.access.Caller;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * What forward deletion does to each dataset. Kept beside the registry rather than in the dataset spec,
 * which runs freeze: changing it affects requests from then on, never a run. Only an OWNER of the
 * dataset's team sets it; every change is in the actions log.
 */
@Service
public class ForwardPolicies {

    private final JdbcTemplate jdbc;
    private final DatasetRegistry datasets;
    private final ActionsLog actions;
    private final Clock clock;

    public ForwardPolicies(JdbcTemplate jdbc, DatasetRegistry datasets, ActionsLog actions, Clock clock) {
        this.jdbc = jdbc;
        this.datasets = datasets;
        this.actions = actions;
        this.clock = clock;
    }

    public ForwardAction actionOf(String dataset) {
        return jdbc.query("SELECT action FROM forward_policies WHERE dataset = ?",
                        (rs, i) -> ForwardAction.valueOf(rs.getString(1)), dataset)
                .stream().findFirst().orElse(ForwardAction.DELETE);
    }

    @Transactional
    public Policy set(String dataset, ForwardAction action, Caller caller) {
        DatasetView view = datasets.require(dataset);
        DatasetRegistry.requireOwner(caller, view.spec().ownerTeam(),
                "set the forward-deletion policy of dataset '" + dataset + "'");
        jdbc.update("""
                        INSERT INTO forward_policies (dataset, action, updated_by, updated_at) VALUES (?, ?, ?, ?)
                        ON CONFLICT (dataset) DO UPDATE SET action = EXCLUDED.action, updated_by = EXCLUDED.updated_by,
                                                            updated_at = EXCLUDED.updated_at""",
                dataset, action.name(), caller.name(), Timestamp.from(clock.instant()));
        actions.record(caller.name(), "dataset.forward-policy", "dataset:" + dataset, Map.of("action", action.name()));
        return new Policy(dataset, action);
    }

    public Policy get(String dataset) {
        datasets.require(dataset);
        return new Policy(dataset, actionOf(dataset));
    }

    /** The body of {@code PUT /api/datasets/{name}/forward-policy}, and its answer. */
    public record Policy(String dataset, ForwardAction action) {
    }

    public record PolicyBody(ForwardAction action) {

        public PolicyBody {
            if (action == null) {
                throw new IllegalArgumentException("action is required: one of DELETE, KEEP_SNAPSHOT, ANONYMISE");
            }
        }
    }
}
