package io.erasure.controlplane.refusal;

/**
 * What the control plane refuses and why, in the domain's terms: the thing asked for does not exist, conflicts with
 * its current state, is not the caller's to do, is malformed, does not fit what it names, or depends on something
 * that cannot be reached now. Services throw it; the web layer ({@code ApiErrors}) alone decides which HTTP status
 * answers each {@link Kind}. The message names the field or the state and the fix.
 */
public final class Refusal extends RuntimeException {

    public enum Kind {
        /** What the request names does not exist. */
        NOT_FOUND,
        /** It exists, but its state does not allow this now (a run already approved, a request already ended). */
        CONFLICT,
        /** The caller's roles or team do not allow it. */
        FORBIDDEN,
        /** A field is missing or malformed. */
        INVALID,
        /** Well-formed, but it does not fit what it names (a live table, a column). */
        UNPROCESSABLE,
        /** Something the answer depends on cannot be reached now: the same request may succeed later. */
        UNAVAILABLE
    }

    private final Kind kind;

    private Refusal(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }

    public static Refusal notFound(String what) {
        return new Refusal(Kind.NOT_FOUND, what + " does not exist");
    }

    public static Refusal conflict(String message) {
        return new Refusal(Kind.CONFLICT, message);
    }

    public static Refusal forbidden(String message) {
        return new Refusal(Kind.FORBIDDEN, message);
    }

    public static Refusal badRequest(String message) {
        return new Refusal(Kind.INVALID, message);
    }

    public static Refusal unprocessable(String message) {
        return new Refusal(Kind.UNPROCESSABLE, message);
    }

    public static Refusal unavailable(String message) {
        return new Refusal(Kind.UNAVAILABLE, message);
    }
}
