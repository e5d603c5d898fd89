package io.erasure.deletionlog.client;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.erasure.model.check.Names;
import io.erasure.model.dataset.DatasetSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.json.JsonMapper;

/**
 * The frozen specs of the log ({@link FrozenSpec}): written by the deletion service with each batch's records, before
 * the batch deletes anything, and read by recoveries and reapplications, which restore or delete again under them.
 *
 * <p>Each spec is kept once per (origin, dataset, digest) in {@code frozen_specs}, and once per (dataset, digest) in
 * {@code frozen_specs_by_dataset}; every batch writes its rows again with the log's TTL, so a spec lives as long as the
 * newest record deleted under it. A record of an origin without a frozen spec was logged before specs were kept: it is
 * not restored under a guessed one.
 */
public final class FrozenSpecs {

    private final CqlSession session;
    private final JsonMapper json;
    private final int ttlSeconds;
    private final PreparedStatement write;
    private final PreparedStatement writeByDataset;
    private final PreparedStatement byOrigin;
    private final PreparedStatement byDataset;

    public FrozenSpecs(CqlSession session, JsonMapper json, Duration ttl) {
        this(session, json, ttl, LogStatements.DEFAULT);
    }

    public FrozenSpecs(CqlSession session, JsonMapper json, Duration ttl, ConsistencyLevel consistency) {
        LogStatements statements = new LogStatements(session, consistency);
        this.session = session;
        this.json = json;
        this.ttlSeconds = (int) LogSchema.requireTtl(ttl);
        this.write =
                statements.prepare("INSERT INTO " + LogSchema.FROZEN_SPECS + " (origin_id, dataset, spec_digest, spec,"
                        + " copy_of, frozen_at) VALUES (?, ?, ?, ?, ?, ?) USING TTL ?");
        this.writeByDataset = statements.prepare("INSERT INTO " + LogSchema.FROZEN_SPECS_BY_DATASET
                + " (dataset, spec_digest," + " spec, frozen_at) VALUES (?, ?, ?, ?) USING TTL ?");
        this.byOrigin = statements.prepare("SELECT origin_id, dataset, spec_digest, spec, copy_of, frozen_at FROM "
                + LogSchema.FROZEN_SPECS + " WHERE origin_id = ?");
        this.byDataset = statements.prepare("SELECT dataset, spec_digest, spec, frozen_at FROM "
                + LogSchema.FROZEN_SPECS_BY_DATASET + " WHERE dataset = ?");
    }

    /** Writes {@code spec} without waiting; the caller joins the future before it deletes anything under it. */
    public CompletableFuture<Void> writeAsync(FrozenSpec spec) {
        String text = json.writeValueAsString(spec.spec());
        CompletableFuture<AsyncResultSet> byOriginWrite = session.executeAsync(write.bind(
                        spec.originId(),
                        spec.dataset(),
                        spec.digest(),
                        text,
                        spec.copyOf(),
                        spec.frozenAt(),
                        ttlSeconds))
                .toCompletableFuture();
        CompletableFuture<AsyncResultSet> byDatasetWrite = session.executeAsync(
                        writeByDataset.bind(spec.dataset(), spec.digest(), text, spec.frozenAt(), ttlSeconds))
                .toCompletableFuture();
        return CompletableFuture.allOf(byOriginWrite, byDatasetWrite);
    }

    /** Writes {@code spec} and returns once it is acknowledged. */
    public void write(FrozenSpec spec) {
        writeAsync(spec).join();
    }

    /** Every spec {@code originId} deleted under, one per dataset it deleted from (its copies' views included). */
    public List<FrozenSpec> ofOrigin(String originId) {
        Names.opaqueId("originId", originId);
        List<FrozenSpec> specs = new ArrayList<>();
        for (Row row : session.execute(byOrigin.bind(originId))) {
            specs.add(new FrozenSpec(
                    row.getString("origin_id"),
                    row.getString("dataset"),
                    row.getString("spec_digest"),
                    json.readValue(row.getString("spec"), DatasetSpec.class),
                    row.getString("copy_of"),
                    row.getInstant("frozen_at")));
        }
        return specs;
    }

    /**
     * The revisions of {@code dataset}'s spec that records still in the log were deleted under, latest first (by when
     * a batch last deleted under each); {@code originId} of each is {@code "dataset"}, as the row is not an origin's.
     */
    public List<FrozenSpec> ofDataset(String dataset) {
        Names.datasetName("dataset", dataset);
        List<FrozenSpec> specs = new ArrayList<>();
        for (Row row : session.execute(byDataset.bind(dataset))) {
            specs.add(new FrozenSpec(
                    "dataset",
                    row.getString("dataset"),
                    row.getString("spec_digest"),
                    json.readValue(row.getString("spec"), DatasetSpec.class),
                    null,
                    row.getInstant("frozen_at")));
        }
        specs.sort(Comparator.comparing(FrozenSpec::frozenAt).reversed());
        return specs;
    }
}
