package io.erasure.deletion.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.infra.LocalEngines;
import io.erasure.infra.S3Engine;
import io.erasure.infra.process.FreePorts;
import io.erasure.model.candidate.Candidate;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.model.trust.Authorization;
import io.erasure.model.trust.FinalSetManifest;
import io.erasure.model.trust.SigningKey;
import io.erasure.model.trust.TaskAuthority;
import io.erasure.model.trust.TrustedKeys;
import io.erasure.store.spi.StoreException;
import io.erasure.support.json.PlatformJson;
import io.erasure.support.trust.SpecDigest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import tools.jackson.databind.json.JsonMapper;

/**
 * The tasks of one run's part, verified at once by many lanes, read the part (and the manifest) from S3 once: every
 * caller but the first waits for its read. A missing or altered part is refused, and the refusal is kept for a short
 * while rather than re-read by every task naming it; S3 being unreachable is retriable and kept for no one. Against the
 * real S3 server, with every GET counted as the client sends it (and the part's GETs slowed down, so that the
 * verifications overlap the read).
 */
class AuthorizedFinalSetsIT {

    private static final int CALLERS = 16;
    private static final Duration REFUSAL_TTL = Duration.ofSeconds(2);
    private static final CutoffTimestamp CUTOFF =
            CutoffTimestamp.fromInstant(Instant.now().minus(Duration.ofHours(1)));

    private final JsonMapper json = PlatformJson.mapper();
    private final Map<String, AtomicInteger> gets = new ConcurrentHashMap<>();
    private final ExecutorService pool = Executors.newFixedThreadPool(CALLERS);
    private S3Engine engine;
    private S3Client s3;
    private SigningKey controlPlane;
    private TrustedKeys trusted;
    private TaskVerifier verifier;
    private DatasetSpec spec;

    @BeforeEach
    void setUp() throws Exception {
        engine = LocalEngines.s3();
        s3 = client(engine.endpoint(), new CountingGets());
        KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        controlPlane = SigningKey.of(
                "cp-test", Base64.getEncoder().encodeToString(pair.getPrivate().getEncoded()));
        trusted = TrustedKeys.of(
                Map.of("cp-test", new TrustedKeys.Trusted(pair.getPublic(), EnumSet.of(Authorization.Kind.RUN))));
        verifier = new TaskVerifier(
                trusted,
                new AuthorizedFinalSets(s3, engine.bucket(), json, REFUSAL_TTL),
                EnumSet.of(Authorization.Kind.RUN));
        String name = "fs-" + Math.abs(System.nanoTime() % 1_000_000);
        spec = DatasetSpec.builder()
                .name(name)
                .storeKind(StoreKind.POSTGRES)
                .connectionRef("pg-main")
                .namespace("app")
                .table("profiles")
                .keyColumns(KeyColumns.partitionOnly("id"))
                .identifierColumn("id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                .backup(S3Layout.defaultBackupLocation(name, BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.5))
                .ownerTeam("team")
                .build();
    }

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
        s3.close();
    }

    @Test
    void concurrentVerificationsOfTasksOfOnePartReadItOnce() throws Exception {
        RunId run = RunId.random();
        List<Map<String, Object>> partKeys = keys(1, 2_001);
        writePart(run, 0, partKeys);
        Authorization authorization = authorize(run, List.of(FinalSetManifest.Part.of(0, partKeys)));
        List<DeletionTask> tasks = new ArrayList<>();
        for (int i = 0; i < CALLERS; i++) {
            tasks.add(task(run, authorization, 0, partKeys.subList(i * 100, i * 100 + 100)));
        }

        List<Optional<Refusal>> verdicts = concurrently(tasks);

        assertThat(verdicts)
                .hasSize(CALLERS)
                .allSatisfy(verdict -> assertThat(verdict).isEmpty());
        assertThat(gets(S3Layout.finalManifestKey(run)))
                .as("reads of the manifest")
                .isEqualTo(1);
        assertThat(gets(S3Layout.finalPartKey(run, 0))).as("reads of the part").isEqualTo(1);

        // and later tasks of the part are checked against what was read
        assertThat(verifier.refusal(task(run, authorization, 0, partKeys.subList(1_900, 2_000))))
                .isEmpty();
        assertThat(verifier.refusal(task(run, authorization, 0, keys(2_000, 2_002))))
                .get()
                .satisfies(r -> assertThat(r.reasonClass()).isEqualTo(Refusal.KEYS_NOT_COVERED));
        assertThat(gets(S3Layout.finalPartKey(run, 0))).isEqualTo(1);
    }

    @Test
    void aMissingPartIsRefusedOnceForEveryoneAndTheRefusalIsKeptForAShortWhile() throws Exception {
        RunId run = RunId.random();
        List<Map<String, Object>> partKeys = keys(1, 500);
        Authorization authorization = authorize(run, List.of(FinalSetManifest.Part.of(0, partKeys))); // no part written
        List<DeletionTask> tasks = new ArrayList<>();
        for (int i = 0; i < CALLERS; i++) {
            tasks.add(task(run, authorization, 0, partKeys.subList(i * 30, i * 30 + 30)));
        }

        assertThat(concurrently(tasks))
                .allSatisfy(verdict -> assertThat(verdict)
                        .get()
                        .satisfies(r -> assertThat(r.reasonClass()).isEqualTo(Refusal.FINAL_SET_MISSING)));
        assertThat(gets(S3Layout.finalPartKey(run, 0)))
                .as("reads of the missing part")
                .isEqualTo(1);

        writePart(run, 0, partKeys); // written late: the refusal holds until it expires, then the part is read again
        assertThat(verifier.refusal(tasks.get(0))).isPresent();
        assertThat(gets(S3Layout.finalPartKey(run, 0))).isEqualTo(1);
        // a sleep, not a wait for a condition: the refusal's time to live running out is what is under test
        Thread.sleep(REFUSAL_TTL.toMillis() + 200);
        assertThat(concurrently(tasks))
                .allSatisfy(verdict -> assertThat(verdict).isEmpty());
        assertThat(gets(S3Layout.finalPartKey(run, 0))).isEqualTo(2);
    }

    @Test
    void anAlteredPartIsRefusedOnceForEveryone() throws Exception {
        RunId run = RunId.random();
        List<Map<String, Object>> partKeys = keys(1, 500);
        Authorization authorization = authorize(run, List.of(FinalSetManifest.Part.of(0, partKeys)));
        writePart(run, 0, keys(1, 501)); // one key more than the signed manifest lists
        List<DeletionTask> tasks = new ArrayList<>();
        for (int i = 0; i < CALLERS; i++) {
            tasks.add(task(run, authorization, 0, partKeys.subList(i * 30, i * 30 + 30)));
        }

        assertThat(concurrently(tasks))
                .allSatisfy(verdict -> assertThat(verdict).get().satisfies(r -> {
                    assertThat(r.reasonClass()).isEqualTo(Refusal.FINAL_SET_ALTERED);
                    assertThat(r.reason()).contains("altered after authorization");
                }));
        assertThat(gets(S3Layout.finalPartKey(run, 0))).isEqualTo(1);
        assertThat(gets(S3Layout.finalManifestKey(run))).isEqualTo(1);
    }

    @Test
    void anUnreachableS3IsRetriableAndNotKept() {
        RunId run = RunId.random();
        List<Map<String, Object>> partKeys = keys(1, 10);
        Authorization authorization = authorize(run, List.of(FinalSetManifest.Part.of(0, partKeys)));
        writePart(run, 0, partKeys);
        // a port nothing listens on
        try (S3Client unreachable = client(URI.create("http://127.0.0.1:" + FreePorts.next()), new CountingGets())) {
            TaskVerifier offline = new TaskVerifier(
                    trusted,
                    new AuthorizedFinalSets(unreachable, engine.bucket(), json, REFUSAL_TTL),
                    EnumSet.of(Authorization.Kind.RUN));
            DeletionTask task = task(run, authorization, 0, partKeys);

            assertThatThrownBy(() -> offline.refusal(task)).isInstanceOf(StoreException.Retriable.class);
            assertThatThrownBy(() -> offline.refusal(task)).isInstanceOf(StoreException.Retriable.class);
            assertThat(gets(S3Layout.finalManifestKey(run)))
                    .as("each verification tries again")
                    .isEqualTo(2);
        }
        assertThat(verifier.refusal(task(run, authorization, 0, partKeys))).isEmpty();
    }

    /** Each task verified by a thread of its own, all released at once. */
    private List<Optional<Refusal>> concurrently(List<DeletionTask> tasks) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Optional<Refusal>>> futures = new ArrayList<>();
        for (DeletionTask task : tasks) {
            futures.add(pool.submit(() -> {
                start.await();
                return verifier.refusal(task);
            }));
        }
        start.countDown();
        List<Optional<Refusal>> verdicts = new ArrayList<>();
        for (Future<Optional<Refusal>> future : futures) {
            verdicts.add(future.get(60, TimeUnit.SECONDS));
        }
        return verdicts;
    }

    private int gets(String key) {
        AtomicInteger count = gets.get(key);
        return count == null ? 0 : count.get();
    }

    private Authorization authorize(RunId run, List<FinalSetManifest.Part> parts) {
        FinalSetManifest manifest = new FinalSetManifest(run.value(), spec.name(), parts);
        s3.putObject(
                r -> r.bucket(engine.bucket()).key(S3Layout.finalManifestKey(run)),
                RequestBody.fromBytes(json.writeValueAsBytes(manifest)));
        return controlPlane.sign(Authorization.unsigned(
                Authorization.Kind.RUN,
                run.value(),
                spec.name(),
                SpecDigest.of(spec),
                manifest.digest(),
                CUTOFF.micros(),
                "UNDER_LIMIT",
                "control-plane",
                Instant.now()));
    }

    private DeletionTask task(RunId run, Authorization authorization, int part, List<Map<String, Object>> keys) {
        return DeletionTask.forRun(run, spec, keys, CUTOFF).withAuthority(TaskAuthority.ofRun(authorization, part));
    }

    private void writePart(RunId run, int part, List<Map<String, Object>> keys) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(bytes)) {
            for (Map<String, Object> key : keys) {
                gzip.write(json.writeValueAsBytes(new Candidate(key, "id", null)));
                gzip.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        s3.putObject(
                r -> r.bucket(engine.bucket()).key(S3Layout.finalPartKey(run, part)),
                RequestBody.fromBytes(bytes.toByteArray()));
    }

    private static List<Map<String, Object>> keys(long from, long toExclusive) {
        return LongStream.range(from, toExclusive)
                .<Map<String, Object>>mapToObj(id -> Map.of("id", id))
                .toList();
    }

    private S3Client client(URI endpoint, ExecutionInterceptor interceptor) {
        return S3Client.builder()
                .endpointOverride(endpoint)
                .region(Region.of(engine.region()))
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(engine.accessKey(), engine.secretKey())))
                .forcePathStyle(true)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .overrideConfiguration(c -> c.addExecutionInterceptor(interceptor))
                .build();
    }

    /** Counts each GET the client sends, by object key; a part's GET is held a moment, as a large part's would be. */
    private final class CountingGets implements ExecutionInterceptor {
        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            SdkRequest request = context.request();
            if (request instanceof GetObjectRequest get) {
                gets.computeIfAbsent(get.key(), key -> new AtomicInteger()).incrementAndGet();
                if (get.key().contains("/final/part-")) {
                    try {
                        // a sleep, not a wait: the fake's scripted delay, so that concurrent verifications overlap it
                        Thread.sleep(300);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        }
    }
}
