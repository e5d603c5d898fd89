package io.erasure.store.s3.check;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.StoreKind;
import io.erasure.store.s3.S3Settings;
import io.erasure.store.s3.client.S3Failures;
import io.erasure.store.s3.objects.ObjectTemplate;
import io.erasure.store.spi.StoreException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;

/**
 * Whether a dataset can be served: an S3_OBJECT dataset with a key template inside the connection's allowed key
 * prefixes, on a bucket that exists and is readable, without versioning (a delete there only adds a delete marker
 * and the data stays in earlier versions) unless the operators allowed it; and a readable retained bucket if one is
 * configured.
 */
public final class DatasetCheck {

    private final S3Client s3;
    private final S3Settings settings;

    public DatasetCheck(S3Client s3, S3Settings settings) {
        this.s3 = s3;
        this.settings = settings;
    }

    public ObjectTemplate resolve(DatasetSpec spec) {
        if (spec.storeKind() != StoreKind.S3_OBJECT) {
            throw new StoreException.Fatal("dataset '" + spec.name() + "' is in " + spec.storeKind()
                    + ", not S3_OBJECT; open it with the " + spec.storeKind() + " adapter");
        }
        ObjectTemplate template = ObjectTemplate.of(spec, settings.keyPrefixes(), settings.settingName("key-prefixes"));
        requireBucket(settings.bucket(), "bucket");
        requireUnversioned(spec);
        if (settings.retainedBucket() != null) {
            requireBucket(settings.retainedBucket(), "retained-bucket");
        }
        return template;
    }

    private void requireBucket(String bucket, String setting) {
        try {
            s3.headBucket(b -> b.bucket(bucket));
        } catch (SdkException e) {
            if (e instanceof AwsServiceException service && service.statusCode() == 404) {
                throw new StoreException.Fatal(
                        "bucket '" + bucket + "' of connection '" + settings.ref()
                                + "' does not exist: create it or fix " + settings.settingName(setting),
                        e);
            }
            throw S3Failures.translate(
                    "check bucket '" + bucket + "' of connection '" + settings.ref() + "'", bucket, e);
        }
    }

    private void requireUnversioned(DatasetSpec spec) {
        if (settings.allowVersionedBucket()) {
            return;
        }
        BucketVersioningStatus status;
        try {
            status = s3.getBucketVersioning(b -> b.bucket(settings.bucket())).status();
        } catch (SdkException e) {
            if (e instanceof AwsServiceException service && service.statusCode() == 501) {
                // a server without versioning (s3proxy): nothing can hide behind a delete marker
                return;
            }
            throw S3Failures.translate(
                    "read the versioning of bucket '" + settings.bucket() + "' (needs" + " s3:GetBucketVersioning)",
                    settings.bucket(),
                    e);
        }
        if (status == BucketVersioningStatus.ENABLED || status == BucketVersioningStatus.SUSPENDED) {
            throw new StoreException.Fatal("bucket '" + settings.bucket() + "' of dataset '" + spec.name() + "' has"
                    + " versioning " + status + ": a delete would only add a delete marker and every earlier version"
                    + " would keep the data. Expire noncurrent versions with a lifecycle rule and set "
                    + settings.settingName("allow-versioned-bucket") + "=true, or use an unversioned bucket");
        }
    }
}
