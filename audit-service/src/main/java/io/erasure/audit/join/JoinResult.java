package io.erasure.audit.join;

/** What joining one part found: every row of the part was scanned, {@code candidates} of them matched. */
public record JoinResult(long rowsScanned, long candidates) {}
