package io.erasure.deletion;

import io.erasure.model.candidate.Candidate;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.event.ControlSignal;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.model.trust.Authorization;
import io.erasure.model.trust.FinalSetManifest;
import io.erasure.model.trust.SigningKey;
import io.erasure.model.trust.TaskAuthority;
import io.erasure.support.trust.SpecDigest;
import io.erasure.support.trust.TaskSigner;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPOutputStream;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.TestConfiguration;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.databind.json.JsonMapper;

/**
 * What validation and the control plane do before a run's tasks reach the deletion service, for tests that publish
 * tasks themselves: each task's keys become one part of the run's final set in S3, with its manifest, and the run is
 * authorized with the control plane's LOCAL ONLY key (the pair of application.yml). A run is authorized once, all its
 * tasks together. Forward tasks are signed as the control plane signs them, copy tasks as this service does.
 */
@TestConfiguration
public class AuthorizedRuns {

    /** The control plane's LOCAL ONLY private key (control-plane's application.yml). */
    public static final SigningKey CONTROL_PLANE =
            SigningKey.of("control-plane-local", "MC4CAQAwBQYDK2VwBCIEIFP9YJnCLRIGnHdmcZEWO06/uijq2IzHGEgltoendJem");

    /** Forward tasks as the control plane signs them. */
    public static final TaskSigner CONTROL_PLANE_TASKS =
            new TaskSigner(CONTROL_PLANE, "control-plane", Clock.systemUTC());
    /**
     * Copy and resolved tasks as this service signs them, with its LOCAL ONLY key (deletion-service's application.yml).
     */
    public static final TaskSigner DELETION_TASKS = new TaskSigner(
            SigningKey.of("deletion-local", "MC4CAQAwBQYDK2VwBCIEIA9XFmeJqe3S4bqKJBbRJ2YcW+jffB2SautBhvlOxL0C"),
            "deletion-service",
            Clock.systemUTC());

    private static final AtomicLong SEQUENCE = new AtomicLong();

    /** {@code signal} as the control plane publishes it: signed, numbered after every signal signed before. */
    public static ControlSignal signed(ControlSignal signal) {
        long now = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
        return signal.signed(SEQUENCE.updateAndGet(last -> Math.max(last + 1, now)), CONTROL_PLANE);
    }

    private final S3Client s3;
    private final String bucket;
    private final JsonMapper json;
    private final Set<String> authorized = ConcurrentHashMap.newKeySet();

    public AuthorizedRuns(S3Client s3, @Value("${erasure.s3.bucket}") String bucket, JsonMapper json) {
        this.s3 = s3;
        this.bucket = bucket;
        this.json = json;
    }

    public DeletionTask authorize(DeletionTask task) {
        return authorize(List.of(task)).get(0);
    }

    /** {@code tasks} of one run, each carrying the run's signed authorization and the final-set part of its keys. */
    public List<DeletionTask> authorize(List<DeletionTask> tasks) {
        DeletionTask first = tasks.get(0);
        RunId run = first.runId();
        if (!authorized.add(run.value())) {
            throw new IllegalStateException(
                    "run " + run.value() + " is authorized already: authorize all its tasks at once");
        }
        List<FinalSetManifest.Part> parts = new ArrayList<>();
        for (int i = 0; i < tasks.size(); i++) {
            DeletionTask task = tasks.get(i);
            writePart(S3Layout.finalPartKey(run, i), task);
            parts.add(FinalSetManifest.Part.of(i, task.keys()));
        }
        FinalSetManifest manifest = new FinalSetManifest(run.value(), first.dataset(), parts);
        s3.putObject(
                r -> r.bucket(bucket).key(S3Layout.finalManifestKey(run)),
                RequestBody.fromBytes(json.writeValueAsBytes(manifest)));
        Authorization signed = sign(first, manifest.digest());
        List<DeletionTask> result = new ArrayList<>();
        for (int i = 0; i < tasks.size(); i++) {
            result.add(tasks.get(i).withAuthority(TaskAuthority.ofRun(signed, i)));
        }
        return result;
    }

    /** The run authorization the control plane would sign for {@code task}'s run over a final set of this digest. */
    public static Authorization sign(DeletionTask task, String finalSetDigest) {
        return CONTROL_PLANE.sign(Authorization.unsigned(
                Authorization.Kind.RUN,
                task.runId().value(),
                task.dataset(),
                SpecDigest.of(task.spec()),
                finalSetDigest,
                task.cutoff().micros(),
                "UNDER_LIMIT",
                "control-plane",
                Instant.now()));
    }

    private void writePart(String key, DeletionTask task) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(bytes)) {
            for (var k : task.keys()) {
                gzip.write(json.writeValueAsBytes(new Candidate(k, "id", null)));
                gzip.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        s3.putObject(r -> r.bucket(bucket).key(key), RequestBody.fromBytes(bytes.toByteArray()));
    }
}
