package io.erasure.controlplane.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.controlplane.registry.IdentifierSourceRegistry;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.event.AuditCompleted;
import io.erasure.model.event.BatchCompleted;
import io.erasure.model.event.BatchCounts;
import io.erasure.model.event.ReadBackResult;
import io.erasure.model.event.TasksPublished;
import io.erasure.model.event.ValidationCompleted;
import io.erasure.model.identifier.IdentifierSource;
import io.erasure.model.run.RunId;
import io.erasure.model.run.RunState;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;

/**
 * Issue 18 items 2 and 4: a run waits for an OPERATOR until someone has seen its dataset delete under exactly this spec
 * and identifier source, and the OPERATOR is never someone whose change the approval covers.
 */
class FourEyesIT extends RunEventsTestSupport {

    @Test
    void aRunThatFoundNothingIsNotTheFirstRunTheFirstThatDeletesWaits() {
        DatasetSpec spec = registerDataset();
        String empty = validated(spec, 0);
        awaitState(empty, RunState.COMPLETED);

        String deleting = validated(spec, 10);

        assertThat(awaitState(deleting, RunState.AWAITING_APPROVAL).approvalReason())
                .contains("first run of dataset '" + spec.name() + "' that deletes rows");
    }

    @Test
    void afterARunDeletedUnderASpecTheNextRunGoesOnAndAnyChangeOfTheSpecHoldsTheNextAgain() {
        DatasetSpec spec = registerDataset();
        deletedOnce(spec);

        String same = validated(spec, 10);
        awaitState(same, RunState.AUTHORIZED);
        complete(spec, same, 10);

        as("owner")
                .put()
                .uri("/api/datasets/" + spec.name())
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(
                        spec.toBuilder().limits(DeletionLimits.fraction(0.2)).build()))
                .exchange()
                .expectStatus()
                .isOk();
        String afterEdit = validated(spec, 10);

        assertThat(awaitState(afterEdit, RunState.AWAITING_APPROVAL).approvalReason())
                .contains("first run since the spec of dataset '" + spec.name() + "' changed");
    }

    @Test
    void aChangeOfTheIdentifierSourceHoldsTheNextRunAndItsEditorMayNotApprove() {
        DatasetSpec spec = registerDataset();
        deletedOnce(spec);
        IdentifierSource source = sources.require(spec.identifierSource());
        as("operator2")
                .put()
                .uri("/api/identifier-sources/" + source.name())
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(new IdentifierSource(
                        source.name(),
                        source.storeKind(),
                        source.connectionRef(),
                        source.namespace(),
                        source.table(),
                        source.identifierColumn(),
                        source.deletableSinceColumn(),
                        source.backup(),
                        Duration.ZERO)))
                .exchange()
                .expectStatus()
                .isOk();

        String run = validated(spec, 10);

        assertThat(awaitState(run, RunState.AWAITING_APPROVAL).approvalReason())
                .contains("first run since identifier source '" + source.name() + "' changed");
        as("operator2")
                .post()
                .uri("/api/runs/" + run + "/approve")
                .exchange()
                .expectStatus()
                .isForbidden()
                .expectBody()
                .jsonPath("$.detail")
                .value(d -> assertThat((String) d)
                        .contains("'operator2' changed identifier source '" + source.name() + "'"));
        assertThat(runs.find(run).orElseThrow().state()).isEqualTo(RunState.AWAITING_APPROVAL);
    }

    @Test
    void theLastEditorOfTheSpecMayNotApproveEvenHoldingTheOperatorRole() {
        DatasetSpec spec = registerDataset();
        deletedOnce(spec);
        // "lead" is an OWNER of demo-team and an OPERATOR
        as("lead")
                .put()
                .uri("/api/datasets/" + spec.name())
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(spec.toBuilder().priority(7).build()))
                .exchange()
                .expectStatus()
                .isOk();

        String run = validated(spec, 10);

        awaitState(run, RunState.AWAITING_APPROVAL);
        as("lead")
                .post()
                .uri("/api/runs/" + run + "/approve")
                .exchange()
                .expectStatus()
                .isForbidden()
                .expectBody()
                .jsonPath("$.detail")
                .value(d -> assertThat((String) d)
                        .contains("'lead' changed the spec of '" + spec.name() + "' since it last deleted"));
        assertThat(runs.find(run).orElseThrow().state()).isEqualTo(RunState.AWAITING_APPROVAL);
        as("operator2")
                .post()
                .uri("/api/runs/" + run + "/approve")
                .exchange()
                .expectStatus()
                .isOk();
    }

    @Test
    void aFinalSetAboveTheOperatorsCeilingWaitsEvenWhenTheOwnersLimitAllowsIt() {
        DatasetSpec spec = registerDataset(b -> b.limits(DeletionLimits.rows(1_000)));
        deletedOnce(spec);

        // 600 of 1,000 rows: under the owner's maxRows 1,000, above the ceiling's fraction 0.5
        String run = validated(spec, 600);

        assertThat(awaitState(run, RunState.AWAITING_APPROVAL).approvalReason())
                .contains("exceeds the operators' ceiling");
    }

    @Autowired
    IdentifierSourceRegistry sources;

    /** A first run of {@code spec} with 10 rows, approved by operator2 and completed with 10 rows deleted. */
    private void deletedOnce(DatasetSpec spec) {
        String first = validated(spec, 10);
        awaitState(first, RunState.AWAITING_APPROVAL);
        as("operator2")
                .post()
                .uri("/api/runs/" + first + "/approve")
                .exchange()
                .expectStatus()
                .isOk();
        complete(spec, first, 10);
    }

    /** A run triggered by "owner", audited (1,000 rows) and validated with {@code rows} rows to delete. */
    private String validated(DatasetSpec spec, long rows) {
        String runId = trigger(spec, false, "owner");
        send(event(
                runId,
                new AuditCompleted(
                        spec.name(),
                        "20261129T000000Z",
                        CUTOFF,
                        1000,
                        rows,
                        S3Layout.candidatesPrefix(RunId.of(runId)),
                        frozenSpec(runId))));
        awaitState(runId, RunState.VALIDATING);
        // as validation reports it: with the digest of the final set the control plane signs its authorization over
        send(event(
                runId,
                new ValidationCompleted(
                        spec.name(),
                        rows,
                        rows,
                        Map.of(),
                        S3Layout.finalPrefix(RunId.of(runId)),
                        rows == 0 ? 0 : 1,
                        false,
                        0,
                        null,
                        "final-set-digest-of-" + runId,
                        frozenSpec(runId))));
        return runId;
    }

    private void complete(DatasetSpec spec, String runId, long deleted) {
        send(event(runId, new TasksPublished(spec.name(), 1, deleted)));
        send(event(
                runId,
                new BatchCompleted(
                        spec.name(),
                        "task-" + runId,
                        "batch-" + runId,
                        null,
                        new BatchCounts(deleted, 0, 0, 0),
                        ReadBackResult.CLEAN,
                        0)));
        awaitState(runId, RunState.COMPLETED);
    }
}
