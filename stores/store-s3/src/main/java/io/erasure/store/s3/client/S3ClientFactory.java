package io.erasure.store.s3.client;

import io.erasure.store.s3.S3Settings;
import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/** The {@link S3Client} of one connection. */
public final class S3ClientFactory {

    private S3ClientFactory() {}

    public static S3Client create(S3Settings settings) {
        S3ClientBuilder builder = S3Client.builder()
                .region(Region.of(settings.region()))
                .forcePathStyle(settings.pathStyle())
                // S3-compatible servers reject the SDK's default flexible checksums on PUT
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .overrideConfiguration(o -> o.apiCallTimeout(Duration.ofMillis(settings.callTimeoutMs()))
                        .addExecutionInterceptor(new DeleteObjectsChecksum()))
                .credentialsProvider(
                        settings.accessKey() == null
                                ? DefaultCredentialsProvider.builder().build()
                                : StaticCredentialsProvider.create(
                                        AwsBasicCredentials.create(settings.accessKey(), settings.secretKey())));
        if (settings.endpoint() != null) {
            builder.endpointOverride(settings.endpoint());
        }
        return builder.build();
    }
}
