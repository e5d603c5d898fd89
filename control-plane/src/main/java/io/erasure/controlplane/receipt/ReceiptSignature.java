package io.erasure.controlplane.receipt;

/**
 * The signature document stored next to a receipt ({@code runs/<id>/receipt.json.sig}):
 * {@code {"alg":"HmacSHA256","keyId":"...","signature":"<64 hex>"}}, the HMAC-SHA256 of the receipt's
 * exact bytes under the key named {@code keyId}.
 */
public record ReceiptSignature(String alg, String keyId, String signature) {}
