package io.erasure.store.s3.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DeleteObjectsChecksumTest {

    @Test
    void computesTheStandardCrc64NvmeCheckValue() {
        // the catalogued check value of CRC-64/NVME over "123456789"
        assertThat(DeleteObjectsChecksum.crc64Nvme("123456789".getBytes(StandardCharsets.US_ASCII)))
                .isEqualTo(0xAE8B14860A799888L);
    }

    @Test
    void theHeaderCarriesTheEightBytesInBase64() {
        assertThat(DeleteObjectsChecksum.headerValue(0xAE8B14860A799888L)).isEqualTo("rosUhgp5mIg=");
    }
}
