package io.erasure.model.key;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.UUID;

/**
 * Content-derived ids: the same parts always give the same id, so a re-delivered task, record or
 * event is recognised and counted instead of applied twice.
 *
 * <p>Parts are length-prefixed before hashing, so {@code ("ab", "c")} and {@code ("a", "bc")} differ.
 */
public final class DeterministicId {

    private DeterministicId() {}

    /** SHA-256 of the parts as 64 lower-case hex characters. */
    public static String sha256Hex(String... parts) {
        return HexFormat.of().formatHex(sha256(parts));
    }

    /** A name-based UUID (RFC 4122 version 3 layout) over the parts, for ids that must be UUIDs. */
    public static UUID nameBasedUuid(String... parts) {
        return UUID.nameUUIDFromBytes(framed(parts));
    }

    private static byte[] sha256(String... parts) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(framed(parts));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime provides SHA-256", e);
        }
    }

    /** The parts length-prefixed, as hashed above: the exact bytes a signature over the parts covers. */
    public static byte[] framed(String... parts) {
        StringBuilder framed = new StringBuilder();
        for (String part : parts) {
            if (part == null) {
                throw new IllegalArgumentException("id parts must not be null");
            }
            framed.append(part.length()).append(':').append(part).append(';');
        }
        return framed.toString().getBytes(StandardCharsets.UTF_8);
    }
}
