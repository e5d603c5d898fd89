package io.erasure.controlplane.retention;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.controlplane.ControlPlaneTestSupport;
import io.erasure.infra.LocalEngines;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.run.RunId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

class RetentionSweeperIT extends ControlPlaneTestSupport {

    @Autowired
    S3Client s3;

    @Test
    void runFilesAndRetainedRowsOlderThanTheRetentionAreDeletedAndBackupsAreLeftAlone() {
        String bucket = LocalEngines.s3().bucket();
        RunId run = RunId.random();
        String candidates = S3Layout.candidatesPartKey(run, 0);
        String retained = S3Layout.retainedKey("profiles", run.value(), "a".repeat(64));
        String backup = "backups/profiles/20261101T000000Z/manifest.json";
        for (String key : List.of(candidates, retained, backup)) {
            s3.putObject(r -> r.bucket(bucket).key(key), RequestBody.fromString("{}"));
        }
        Instant now = Instant.now();

        int today = new RetentionSweeper(s3, bucket, Duration.ofDays(30), Clock.fixed(now, ZoneOffset.UTC)).sweep();
        assertThat(keys(bucket)).contains(candidates, retained, backup);

        int later = new RetentionSweeper(
                        s3, bucket, Duration.ofDays(30), Clock.fixed(now.plus(Duration.ofDays(31)), ZoneOffset.UTC))
                .sweep();

        assertThat(keys(bucket)).doesNotContain(candidates, retained).contains(backup);
        assertThat(later).isGreaterThanOrEqualTo(2);
        assertThat(today).isGreaterThanOrEqualTo(0);
    }

    private List<String> keys(String bucket) {
        return s3.listObjectsV2Paginator(r -> r.bucket(bucket)).contents().stream()
                .map(S3Object::key)
                .toList();
    }
}
