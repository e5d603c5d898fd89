package io.erasure.controlplane.run;

/**
 * A receipt as issued: its exact bytes (what the signature covers) and its signature document, null for
 * receipts issued before receipts were signed.
 */
public record StoredReceipt(byte[] body, String signature) {}
