package io.erasure.audit.join;

import io.erasure.identifiers.IdentifierHash;
import io.erasure.identifiers.IdentifierKind;
import io.erasure.identifiers.IdentifierSet;
import java.nio.charset.StandardCharsets;

/** Turns the identifier field of a scanned record into the two longs the {@link IdentifierSet} compares. */
final class IdentifierField {

    private final IdentifierKind kind;

    IdentifierField(IdentifierKind kind) {
        this.kind = kind;
    }

    /**
     * Writes the identifier of {@code field} to {@code a[i]} (numeric) or {@code a[i], b[i]} (hashed).
     *
     * @return false if the record has no usable identifier (absent, null, not an integer where
     *         identifiers are numeric): such a row can never be a candidate
     */
    boolean extract(RecordScanner scanner, int field, byte[] buffer, long[] a, long[] b, int i) {
        byte found = scanner.kind(field);
        if (kind == IdentifierKind.NUMERIC) {
            if (found != RecordScanner.NUMBER && found != RecordScanner.STRING) {
                return false;
            }
            long value = Bytes.parseLong(buffer, scanner.start(field), scanner.end(field));
            a[i] = value;
            return value != Bytes.NOT_A_LONG;
        }
        if (found == RecordScanner.NUMBER || found == RecordScanner.STRING) {
            IdentifierHash.hash(buffer, scanner.start(field), scanner.end(field), a, b, i);
            return true;
        }
        if (found == RecordScanner.ESCAPED_STRING) {
            byte[] text = scanner.text(buffer, field).getBytes(StandardCharsets.UTF_8);
            IdentifierHash.hash(text, 0, text.length, a, b, i);
            return true;
        }
        return false;
    }
}
