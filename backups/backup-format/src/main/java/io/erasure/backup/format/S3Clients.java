package io.erasure.backup.format;

import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/** An {@link S3Client} for tools that run without Spring (the exporter's command line, benchmarks). */
public final class S3Clients {

    private S3Clients() {}

    /**
     * @param endpoint  null for AWS itself; else an S3-compatible server (MinIO, s3proxy)
     * @param accessKey null (with secretKey) to use the AWS default credentials chain
     */
    public static S3Client create(URI endpoint, String region, String accessKey, String secretKey, boolean pathStyle) {
        S3ClientBuilder builder = S3Client.builder()
                .region(Region.of(region))
                .forcePathStyle(pathStyle)
                // S3-compatible servers reject the SDK's default flexible checksums; parts carry their own SHA-256
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
        if (endpoint != null) {
            builder.endpointOverride(endpoint);
        }
        if (accessKey != null) {
            builder.credentialsProvider(
                    StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)));
        }
        return builder.build();
    }
}
