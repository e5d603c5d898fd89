package io.erasure.store.s3.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.store.spi.StoreException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

class S3FailuresTest {

    @Test
    void serverTroubleAndThrottlingAreRetriable() {
        assertThat(S3Failures.translate("read", "b", s3(503, "SlowDown"))).isInstanceOf(StoreException.Retriable.class);
        assertThat(S3Failures.translate("read", "b", s3(500, "InternalError")))
                .isInstanceOf(StoreException.Retriable.class);
        assertThat(S3Failures.translate("read", "b", s3(400, "RequestTimeout")))
                .isInstanceOf(StoreException.Retriable.class);
        assertThat(S3Failures.translate("read", "b", s3(409, "ConditionalRequestConflict")))
                .isInstanceOf(StoreException.Retriable.class);
        assertThat(S3Failures.translate("read", "b", SdkClientException.create("connection refused")))
                .isInstanceOf(StoreException.Retriable.class);
    }

    @Test
    void accessDeniedAndMissingBucketsAreFatalWithTheFix() {
        assertThat(S3Failures.translate("read", "owner", s3(403, "AccessDenied")))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("bucket 'owner'")
                .hasMessageContaining("s3:DeleteObject");
        assertThat(S3Failures.translate("read", "owner", s3(404, "NoSuchBucket")))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("Bucket 'owner' does not exist");
        assertThat(S3Failures.translate("delete", "owner", s3(501, "NotImplemented")))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("conditional-requests=false");
    }

    @Test
    void aMissingKeyIsNotAMissingBucket() {
        assertThat(S3Failures.isMissingKey(s3(404, "NoSuchKey"))).isTrue();
        assertThat(S3Failures.isMissingKey(s3(404, null))).isTrue();
        assertThat(S3Failures.isMissingKey(s3(404, "NoSuchBucket"))).isFalse();
        assertThat(S3Failures.isPreconditionFailed(s3(412, "PreconditionFailed")))
                .isTrue();
    }

    private static S3Exception s3(int status, String code) {
        return (S3Exception) S3Exception.builder()
                .statusCode(status)
                .message(code)
                .awsErrorDetails(AwsErrorDetails.builder()
                        .errorCode(code)
                        .errorMessage(code)
                        .build())
                .build();
    }
}
