package io.erasure.audit.units;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import java.util.List;

/**
 * The done marker of one unit: its part (or token range) was joined completely and its candidate file is written.
 *
 * @param deletedNotPurged what tombstones still held on disk in the unit's SSTables (Cassandra backups; 0 for others,
 *                         and in markers written before it was counted)
 */
public record UnitOutcome(
        int partIndex,
        long rowsScanned,
        long candidates,
        @JsonSetter(nulls = Nulls.AS_EMPTY) long deletedNotPurged) {

    public UnitOutcome(int partIndex, long rowsScanned, long candidates) {
        this(partIndex, rowsScanned, candidates, 0);
    }

    /** The units' counts added up, as the run's totals ({@code partIndex} -1). */
    public static UnitOutcome sum(List<UnitOutcome> units) {
        return new UnitOutcome(
                -1,
                units.stream().mapToLong(UnitOutcome::rowsScanned).sum(),
                units.stream().mapToLong(UnitOutcome::candidates).sum(),
                units.stream().mapToLong(UnitOutcome::deletedNotPurged).sum());
    }
}
