package io.erasure.audit.units;

/** The done marker of one unit: its part was joined completely and its candidate file is written. */
public record UnitOutcome(int partIndex, long rowsScanned, long candidates) {}
