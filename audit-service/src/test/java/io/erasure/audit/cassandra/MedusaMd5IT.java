package io.erasure.audit.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.backup.format.S3Clients;
import io.erasure.infra.LocalEngines;
import io.erasure.infra.S3Engine;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * Multipart MD5s as an S3 server computes them: an object uploaded in {@value MedusaMd5#PART_SIZE_MIB} MiB parts, as
 * Medusa's uploads cut them, is checked against the ETag the local S3 server gives it (not a value this test computes).
 */
class MedusaMd5IT {

    private static final S3Engine ENGINE = LocalEngines.s3();
    private static final S3Client S3 =
            S3Clients.create(ENGINE.endpoint(), ENGINE.region(), ENGINE.accessKey(), ENGINE.secretKey(), true);

    @AfterAll
    static void close() {
        S3.close();
    }

    @Test
    void anObjectUploadedInPartsIsCheckedAgainstItsMultipartEtag() throws Exception {
        // 2 full parts and a short last one
        byte[] bytes = MedusaMd5Test.bytes((int) (2 * MedusaMd5.PART_SIZE + 12_345));
        String key = "medusa-it/" + UUID.randomUUID() + "/nb-1-big-Data.db";
        String etag = uploadInParts(key, bytes);
        assertThat(etag).as("the server's multipart ETag").matches("[0-9a-f]{32}-3");

        try (InputStream in = S3.getObject(b -> b.bucket(ENGINE.bucket()).key(key))) {
            MedusaMd5.Checked checked = MedusaMd5.of(key, etag, bytes.length).check(in);
            assertThatCode(checked::verify).doesNotThrowAnyException();
        }
        byte[] changed = bytes.clone();
        changed[(int) MedusaMd5.PART_SIZE + 1] ^= 0x01;
        MedusaMd5.Checked checked = MedusaMd5.of(key, etag, bytes.length).check(new ByteArrayInputStream(changed));
        assertThatThrownBy(checked::verify)
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageStartingWith("checksum mismatch for object " + key);
    }

    @Test
    void anObjectOfWholePartsHasNoEmptyLastPart() throws Exception {
        byte[] bytes = MedusaMd5Test.bytes((int) MedusaMd5.PART_SIZE * 2);
        String key = "medusa-it/" + UUID.randomUUID() + "/nb-2-big-Data.db";
        String etag = uploadInParts(key, bytes);
        assertThat(etag).as("the server's multipart ETag").matches("[0-9a-f]{32}-2");

        MedusaMd5.Checked checked = MedusaMd5.of(key, etag, bytes.length).check(new ByteArrayInputStream(bytes));
        assertThatCode(checked::verify).doesNotThrowAnyException();
    }

    private static String uploadInParts(String key, byte[] bytes) {
        String upload = S3.createMultipartUpload(b -> b.bucket(ENGINE.bucket()).key(key))
                .uploadId();
        List<CompletedPart> parts = new ArrayList<>();
        for (int from = 0, number = 1; from < bytes.length; from += (int) MedusaMd5.PART_SIZE, number++) {
            byte[] part = Arrays.copyOfRange(bytes, from, (int) Math.min(bytes.length, from + MedusaMd5.PART_SIZE));
            int n = number;
            String etag = S3.uploadPart(
                            b -> b.bucket(ENGINE.bucket())
                                    .key(key)
                                    .uploadId(upload)
                                    .partNumber(n),
                            RequestBody.fromBytes(part))
                    .eTag();
            parts.add(CompletedPart.builder().partNumber(n).eTag(etag).build());
        }
        return S3.completeMultipartUpload(
                        b -> b.bucket(ENGINE.bucket()).key(key).uploadId(upload).multipartUpload(m -> m.parts(parts)))
                .eTag()
                .replace("\"", "");
    }
}
