package io.erasure.audit.join;

import io.erasure.backup.format.ColumnTypes;

/**
 * How identifiers are compared: as 64-bit integers when both the identifier backup and the data
 * backup type the column as an integer type, else as text (a number's decimal digits, a UUID's
 * canonical form), hashed to 128 bits.
 */
public enum IdentifierKind {
    NUMERIC,
    STRING;

    public static IdentifierKind of(String identifierBackupType, String dataBackupType) {
        return ColumnTypes.isIntegral(identifierBackupType) && ColumnTypes.isIntegral(dataBackupType)
                ? NUMERIC
                : STRING;
    }
}
