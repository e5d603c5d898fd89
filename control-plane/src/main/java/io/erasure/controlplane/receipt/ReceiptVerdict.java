package io.erasure.controlplane.receipt;

/** Whether a receipt is the one the platform signed, and why (or why not). */
public record ReceiptVerdict(boolean valid, String reason, String keyId) {

    static ReceiptVerdict valid(String keyId) {
        return new ReceiptVerdict(true, "signed by this platform with key '" + keyId + "' and unchanged since", keyId);
    }

    static ReceiptVerdict invalid(String keyId, String reason) {
        return new ReceiptVerdict(false, reason, keyId);
    }
}
