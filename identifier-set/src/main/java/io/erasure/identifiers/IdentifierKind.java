package io.erasure.identifiers;

/**
 * How identifiers are compared: as 64-bit integers ({@code (value, 0)}) when both the identifier backup and the data
 * backup type the column as an integer type, else as text (a number's decimal digits, a UUID's canonical form),
 * hashed to 128 bits by {@link IdentifierHash}.
 */
public enum IdentifierKind {
    NUMERIC,
    STRING
}
