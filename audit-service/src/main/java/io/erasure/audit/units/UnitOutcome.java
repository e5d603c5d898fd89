package io.erasure.audit.units;

/**
 * The done marker of one unit: its part (or token range) was joined completely and its candidate file is written.
 *
 * @param deletedNotPurged what tombstones still held on disk in the unit's SSTables (Cassandra backups; 0 for others,
 *                         and in markers written before it was counted)
 */
public record UnitOutcome(int partIndex, long rowsScanned, long candidates, long deletedNotPurged) {

    public UnitOutcome(int partIndex, long rowsScanned, long candidates) {
        this(partIndex, rowsScanned, candidates, 0);
    }
}
