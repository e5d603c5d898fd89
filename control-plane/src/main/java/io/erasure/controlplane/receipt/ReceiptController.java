package io.erasure.controlplane.receipt;

import io.erasure.support.access.CallerResolver;
import io.erasure.support.access.Role;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestPart;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Checks a receipt someone holds against its signature:
 * {@code curl -u viewer:viewer -F receipt=@receipt.json -F signature=@receipt.json.sig .../api/receipts/verify}.
 * The answer is 200 with {@code valid} and the reason either way.
 */
@RestController
public class ReceiptController {

    private final ReceiptSigner signer;
    private final JsonMapper json;
    private final CallerResolver callers;

    public ReceiptController(ReceiptSigner signer, JsonMapper json, CallerResolver callers) {
        this.signer = signer;
        this.json = json;
        this.callers = callers;
    }

    /**
     * {@code receipt}: the receipt's bytes exactly as downloaded; {@code signature}: the signature document
     * as downloaded, or just its 64 hex characters.
     */
    @PostMapping(path = "/api/receipts/verify", consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
    public ReceiptVerdict verify(
            @RequestPart("receipt") MultipartFile receipt, @RequestPart("signature") MultipartFile signature) {
        // the same readers as GET /api/runs/**: verifying reveals nothing the caller does not already hold
        callers.current().requireAny("verifying a receipt", Role.values());
        String text = new String(bytes(signature), StandardCharsets.UTF_8).trim();
        ReceiptSignature parsed;
        if (text.startsWith("{")) {
            try {
                parsed = json.readValue(text, ReceiptSignature.class);
            } catch (JacksonException e) {
                return ReceiptVerdict.invalid(
                        null,
                        "the signature part is not a signature document" + " {\"alg\",\"keyId\",\"signature\"}: "
                                + e.getOriginalMessage());
            }
        } else {
            parsed = new ReceiptSignature(null, null, text);
        }
        return signer.verify(bytes(receipt), parsed);
    }

    private static byte[] bytes(MultipartFile part) {
        try {
            return part.getBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the uploaded part " + part.getName(), e);
        }
    }
}
