package io.erasure.store.s3;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.s3.check.DatasetCheck;
import io.erasure.store.s3.objects.ObjectTemplate;
import io.erasure.store.s3.objects.RowObjects;
import io.erasure.store.s3.objects.StoredObject;
import io.erasure.store.s3.plan.DeleteExecutor;
import io.erasure.store.s3.plan.DeletePlanner;
import io.erasure.store.s3.read.RowReader;
import io.erasure.store.s3.restore.ObjectRestorer;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.LiveState;
import io.erasure.store.spi.LoadSignal;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreCapabilities;
import io.erasure.store.spi.StoreCapabilities.Capability;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The S3 object store adapter: a dataset (usually the view of a copy, {@code DatasetCopy.viewOf}) whose rows are
 * objects of the connection's bucket, addressed by the dataset's key template. A plain template
 * ({@code exports/{customer_id}.json}) gives one object per key; a prefix template ({@code exports/{customer_id}/})
 * gives every object under the prefix, listed page by page and refused beyond {@code max-objects-per-key}.
 *
 * <h2>Rows</h2>
 * {@link #readRows} returns one column {@code object_<n>} per object holding its key, ETag, LastModified, size,
 * content type, user metadata and either its content (base64, up to {@code inline-max-bytes}) or a reference to a
 * server-side copy made, before anything is deleted, in the platform's {@code retained-bucket} under
 * {@code <retained-prefix><dataset>/<sha256 of the key>/<etag>} (see {@link RowReader}). A row's write time is its
 * newest object's LastModified, which S3 keeps to the second: it is taken as the last microsecond of that second.
 *
 * <h2>What a delete guarantees</h2>
 * <ul>
 *   <li>Only objects listed in the plan (one {@code DELETE s3://bucket/key IF-MATCH ?} statement each) are
 *       deleted; an object created under a prefix after the plan is never deleted, and its row is kept whole.</li>
 *   <li>At plan time a row with any object last modified after the batch's cut-off is kept
 *       ({@code SKIP_WRITTEN_AFTER_CUTOFF}).</li>
 *   <li>Right before the delete each row is read again; it is kept if an object's ETag changed, an object was
 *       modified after the cut-off, or an object was added (see {@link DeleteExecutor}).</li>
 *   <li>With {@code conditional-requests=true} (AWS S3) each object's delete is also conditioned by the server on
 *       the ETag read at plan time, so a rewrite at any moment after the plan survives. The one exception: a rewrite
 *       with byte-identical content keeps its ETag (single-part uploads) and is deleted, yet its content is exactly
 *       the logged one, so a restore gives it back.</li>
 *   <li>With {@code conditional-requests=false} (s3proxy 2.6, which ignores {@code If-Match} on DeleteObject and
 *       fails DeleteObjects carrying ETags) a write landing between the row's re-read and its DeleteObjects
 *       request (at most {@code 100} objects later) is deleted. It is the one remaining race.</li>
 * </ul>
 * The deletion service plans before it reads rows for the log, and a changed ETag makes the delete a no-op, so the
 * log always holds the content that is deleted (except in that race).
 *
 * <p>Capabilities: {@code cutoffConditioned} is declared false. The checks above are real, but S3 cannot guarantee
 * the contract's meaning of it: LastModified has whole-second precision, the server's clock (not the writer's)
 * sets it, and without conditional requests the last step is racy. So S3 objects serve as copies, deleted after
 * their source at the source's cut-off. No row timestamps (LastModified is per object, not per cell), no TTLs, no
 * partition deletes, no bulk restore.
 *
 * <h2>Restores</h2>
 * Objects are put back only where absent, with their content type and metadata; see {@link ObjectRestorer} for the
 * race without conditional requests.
 *
 * <h2>Load</h2>
 * S3 publishes no utilization; {@link #loadSignal} is idle (utilization 0, no parts). Throttling by S3 shows up as
 * {@code SlowDown} answers, which are {@code Retriable} and make the deletion throttle back off.
 *
 * <h2>Errors</h2>
 * See {@link io.erasure.store.s3.client.S3Failures}: 5xx, throttling and timeouts are retriable; 403 and missing
 * buckets are fatal with the fix.
 */
public final class S3ObjectAdapter implements StoreAdapter {

    /** Keys per call; one DeleteObjects request holds at most as many objects. */
    public static final int MAX_BATCH = 1_000;

    private static final StoreCapabilities CAPABILITIES = StoreCapabilities.of(MAX_BATCH, Capability.RESTORE);

    private final S3Client s3;
    private final DatasetCheck check;
    private final RowObjects objects;
    private final RowReader reader;
    private final DeletePlanner planner;
    private final DeleteExecutor executor;
    private final ObjectRestorer restorer;
    private final Clock clock;
    private final Map<DatasetSpec, ObjectTemplate> templates = new ConcurrentHashMap<>();

    public S3ObjectAdapter(S3Client s3, S3Settings settings, Clock clock) {
        this.s3 = s3;
        this.clock = clock;
        this.check = new DatasetCheck(s3, settings);
        this.objects = new RowObjects(
                s3, settings.bucket(), settings.maxObjectsPerKey(), settings.settingName("max-objects-per-key"));
        this.reader = new RowReader(s3, objects, settings);
        this.planner = new DeletePlanner(objects);
        this.executor = new DeleteExecutor(s3, objects, settings.conditionalRequests());
        this.restorer = new ObjectRestorer(s3, objects, settings.conditionalRequests());
    }

    @Override
    public StoreCapabilities capabilities() {
        return CAPABILITIES;
    }

    /**
     * Checks that the dataset has a key template whose literal prefix the connection's {@code key-prefixes} allow,
     * that the bucket (and the retained bucket, if set) exists and is readable, and that the bucket is not
     * versioned (unless {@code allow-versioned-bucket}).
     */
    @Override
    public void checkDataset(DatasetSpec spec) {
        templates.put(spec, check.resolve(spec));
    }

    @Override
    public List<LiveRow> readRows(DatasetSpec spec, List<Map<String, Object>> keys) {
        ObjectTemplate template = templateFor(spec, keys);
        List<LiveRow> rows = new ArrayList<>();
        for (Map<String, Object> key : keys) {
            reader.read(spec.name(), key, template.render(key)).ifPresent(rows::add);
        }
        return rows;
    }

    @Override
    public List<LiveState> checkLiveState(DatasetSpec spec, List<Map<String, Object>> keys) {
        ObjectTemplate template = templateFor(spec, keys);
        List<LiveState> states = new ArrayList<>();
        for (Map<String, Object> key : keys) {
            List<StoredObject> current = objects.of(template.render(key));
            states.add(
                    current.isEmpty()
                            ? LiveState.absent(key)
                            : new LiveState(
                                    key,
                                    true,
                                    current.stream()
                                            .mapToLong(StoredObject::lastWriteMicros)
                                            .max()
                                            .getAsLong()));
        }
        return states;
    }

    @Override
    public DeletePlan planDelete(DeleteBatch batch) {
        return planner.plan(templateFor(batch.spec(), batch.keys()), batch);
    }

    @Override
    public DeleteOutcome executeDelete(DeletePlan plan) {
        return executor.execute(templateFor(plan.batch().spec(), plan.batch().keys()), plan);
    }

    @Override
    public RestoreOutcome restore(DatasetSpec spec, List<DeletionRecord> records) {
        if (records.size() > MAX_BATCH) {
            throw new IllegalArgumentException(
                    "restore takes at most " + MAX_BATCH + " records per call, got " + records.size());
        }
        ObjectTemplate template = templateFor(spec, List.of());
        List<RestoreOutcome.RecordOutcome> outcomes = new ArrayList<>();
        for (DeletionRecord record : records) {
            outcomes.add(restorer.restore(template, record));
        }
        return new RestoreOutcome(outcomes);
    }

    @Override
    public LoadSignal loadSignal() {
        return LoadSignal.of(Map.of(), clock.instant());
    }

    @Override
    public void close() {
        s3.close();
    }

    private ObjectTemplate templateFor(DatasetSpec spec, List<Map<String, Object>> keys) {
        if (keys.size() > MAX_BATCH) {
            throw new IllegalArgumentException("at most " + MAX_BATCH + " keys per call, got " + keys.size());
        }
        for (int i = 0; i < keys.size(); i++) {
            spec.keyColumns().requireFullKey("keys[" + i + "]", keys.get(i));
        }
        // a spec checked by another replica is checked here on first use
        return templates.computeIfAbsent(spec, check::resolve);
    }
}
