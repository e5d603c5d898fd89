package io.erasure.deletionlog.client;

import java.time.Instant;

/**
 * A record's clear metadata, read without its payload (nothing is decrypted): enough to count a scope's records, tell
 * deletions from anonymisations and find each key's latest record. {@code purged}: its dataset key version is gone,
 * so its payload can no longer be read.
 */
public record RecordHeader(
        String recordId, String dataset, String keyHash, Instant deletedAt, boolean purged, boolean anonymised) {}
