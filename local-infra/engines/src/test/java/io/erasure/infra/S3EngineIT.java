package io.erasure.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.S3Object;

@ExtendWith(LocalEnginesExtension.class)
class S3EngineIT {

    private static final int PART = 5 * 1024 * 1024;

    @Test
    void multipartUploadIsReadBackWholeAndListedUnderItsPrefix(S3Engine s3) {
        try (S3Client client = S3Client.builder()
                .endpointOverride(s3.endpoint())
                .region(Region.of(s3.region()))
                .credentialsProvider(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create(s3.accessKey(), s3.secretKey())))
                .forcePathStyle(true)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .build()) {
            String key = "backups/engine-test/20261130T000000Z/part-00000.jsonl.gz";
            byte[] first = filled(PART, (byte) 'a');
            byte[] second = filled(1024, (byte) 'b');

            String uploadId = client.createMultipartUpload(
                            r -> r.bucket(s3.bucket()).key(key))
                    .uploadId();
            List<CompletedPart> parts = new ArrayList<>();
            byte[][] chunks = {first, second};
            for (int i = 0; i < chunks.length; i++) {
                int number = i + 1;
                String etag = client.uploadPart(
                                r -> r.bucket(s3.bucket())
                                        .key(key)
                                        .uploadId(uploadId)
                                        .partNumber(number),
                                RequestBody.fromBytes(chunks[number - 1]))
                        .eTag();
                parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
            }
            client.completeMultipartUpload(r -> r.bucket(s3.bucket())
                    .key(key)
                    .uploadId(uploadId)
                    .multipartUpload(
                            CompletedMultipartUpload.builder().parts(parts).build()));
            client.putObject(
                    r -> r.bucket(s3.bucket()).key("backups/engine-test/20261130T000000Z/manifest.json"),
                    RequestBody.fromString("{}"));
            client.putObject(r -> r.bucket(s3.bucket()).key("runs/other/report.json"), RequestBody.fromString("{}"));

            byte[] read =
                    client.getObjectAsBytes(r -> r.bucket(s3.bucket()).key(key)).asByteArray();
            assertThat(read.length).isEqualTo(PART + 1024);
            assertThat(Arrays.copyOfRange(read, PART - 1, PART + 1)).containsExactly('a', 'b');

            List<String> listed = client
                    .listObjectsV2Paginator(r -> r.bucket(s3.bucket()).prefix("backups/engine-test/"))
                    .contents()
                    .stream()
                    .map(S3Object::key)
                    .toList();
            assertThat(listed).containsExactlyInAnyOrder(key, "backups/engine-test/20261130T000000Z/manifest.json");
        }
    }

    private static byte[] filled(int size, byte value) {
        byte[] bytes = new byte[size];
        Arrays.fill(bytes, value);
        return bytes;
    }
}
