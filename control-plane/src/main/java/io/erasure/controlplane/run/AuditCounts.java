package io.erasure.controlplane.run;

/**
 * What a run's audit found, as the run's {@code counts.audit} keeps it (and its receipt shows it).
 *
 * @param snapshot    the backup snapshot the audit joined
 * @param rowsScanned the rows of the snapshot it read
 * @param candidates  the rows it found to delete, before validation
 */
public record AuditCounts(String snapshot, long rowsScanned, long candidates) {}
