package io.erasure.store.s3.client;

import io.erasure.store.spi.StoreException;
import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Which S3 failures are worth a retry. Retriable: 5xx answers, throttling ({@code SlowDown}, 429), request
 * timeouts, conflicting concurrent conditional requests (409), and client-side failures (connection refused or
 * lost, call timeouts). Fatal, with the fix: 403 (credentials or permissions), a missing bucket, 501 (the server
 * lacks a feature the connection asks for) and every other 4xx.
 */
public final class S3Failures {

    private static final Set<String> RETRIABLE_CODES = Set.of(
            "SlowDown",
            "Throttling",
            "ThrottlingException",
            "RequestTimeout",
            "RequestTimeTooSkewed",
            "InternalError",
            "ServiceUnavailable",
            "OperationAborted",
            "ConditionalRequestConflict");

    private S3Failures() {}

    /** {@code action} on {@code bucket} failed: the exception to throw. */
    public static StoreException translate(String action, String bucket, SdkException e) {
        if (e instanceof AwsServiceException service) {
            int status = service.statusCode();
            String code = errorCode(service);
            String message = action + ": " + status + (code.isEmpty() ? "" : " " + code) + " " + service.getMessage();
            if (status >= 500 && status != 501
                    || status == 429
                    || status == 409
                    || RETRIABLE_CODES.contains(code)
                    || service.isThrottlingException()) {
                return new StoreException.Retriable(message, e);
            }
            if (status == 403) {
                return new StoreException.Fatal(
                        message + ". Access to bucket '" + bucket + "' was denied: check the"
                                + " connection's access-key/secret-key (or its role) and grant s3:ListBucket,"
                                + " s3:GetObject, s3:PutObject and s3:DeleteObject on the bucket (s3:PutObject on the"
                                + " retained bucket)",
                        e);
            }
            if ("NoSuchBucket".equals(code)) {
                return new StoreException.Fatal(
                        message + ". Bucket '" + bucket + "' does not exist: create it or fix"
                                + " the connection's 'bucket' (or 'retained-bucket') setting",
                        e);
            }
            if (status == 501) {
                return new StoreException.Fatal(
                        message + ". The server does not implement this request; if it lacks"
                                + " conditional deletes or writes, set the connection's conditional-requests=false",
                        e);
            }
            return new StoreException.Fatal(message, e);
        }
        if (e instanceof SdkClientException || e.retryable()) {
            return new StoreException.Retriable(action + ": " + e.getMessage(), e);
        }
        return new StoreException.Fatal(action + ": " + e.getMessage(), e);
    }

    /** True for a 404 about a missing key (HEAD answers have no body, so their code may be empty). */
    public static boolean isMissingKey(SdkException e) {
        return e instanceof AwsServiceException service
                && service.statusCode() == 404
                && !"NoSuchBucket".equals(errorCode(service));
    }

    /** True for 412 Precondition Failed: a condition (ETag, If-None-Match) did not hold. */
    public static boolean isPreconditionFailed(SdkException e) {
        return e instanceof AwsServiceException service && service.statusCode() == 412;
    }

    public static String errorCode(AwsServiceException e) {
        return e.awsErrorDetails() == null || e.awsErrorDetails().errorCode() == null
                ? ""
                : e.awsErrorDetails().errorCode();
    }
}
