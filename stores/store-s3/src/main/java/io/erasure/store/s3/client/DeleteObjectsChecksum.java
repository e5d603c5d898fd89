package io.erasure.store.s3.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Base64;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectsRequest;

/**
 * Gives DeleteObjects requests a CRC64NVME checksum header computed here, in plain Java.
 *
 * <p>DeleteObjects must carry a checksum. The SDK's default is a CRC32 header, which s3proxy refuses (501, it only
 * knows {@code x-amz-checksum-crc64nvme}), and the SDK computes CRC64NVME only with the native CRT library. A
 * request that already has a checksum header is left alone by the SDK, so this interceptor adds the one every
 * server accepts: AWS S3 verifies it like any other, s3proxy knows it.
 */
public final class DeleteObjectsChecksum implements ExecutionInterceptor {

    static final String HEADER = "x-amz-checksum-crc64nvme";
    /** CRC-64/NVME, reflected polynomial. */
    private static final long POLYNOMIAL = 0x9A6C9329AC4BC9B5L;

    private static final long[] TABLE = new long[256];

    static {
        for (int i = 0; i < 256; i++) {
            long crc = i;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 1) != 0 ? (crc >>> 1) ^ POLYNOMIAL : crc >>> 1;
            }
            TABLE[i] = crc;
        }
    }

    @Override
    public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
        if (!(context.request() instanceof DeleteObjectsRequest)
                || context.requestBody().isEmpty()
                || context.httpRequest().firstMatchingHeader(HEADER).isPresent()) {
            return context.httpRequest();
        }
        try (InputStream body =
                context.requestBody().get().contentStreamProvider().newStream()) {
            String value = headerValue(crc64Nvme(body.readAllBytes()));
            return context.httpRequest().copy(r -> r.putHeader(HEADER, value));
        } catch (IOException e) {
            throw new UncheckedIOException("reading the DeleteObjects body for its checksum failed", e);
        }
    }

    static long crc64Nvme(byte[] data) {
        long crc = ~0L;
        for (byte b : data) {
            crc = TABLE[(int) ((crc ^ b) & 0xFF)] ^ (crc >>> 8);
        }
        return ~crc;
    }

    /** The header carries the checksum's 8 bytes, big-endian, in base64. */
    static String headerValue(long crc) {
        return Base64.getEncoder()
                .encodeToString(ByteBuffer.allocate(Long.BYTES).putLong(crc).array());
    }
}
