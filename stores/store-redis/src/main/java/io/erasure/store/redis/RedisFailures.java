package io.erasure.store.redis;

import io.erasure.store.spi.StoreException;
import io.lettuce.core.RedisCommandExecutionException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Which Redis failures are worth a retry.
 *
 * <p>An error the server replied with is classified by its prefix. Retriable: {@code LOADING} (a restarting server
 * loading its data), {@code BUSY} (a long script), {@code TRYAGAIN}, {@code MASTERDOWN}, {@code READONLY} (a replica
 * promoted meanwhile), {@code NOREPLICAS}, {@code OOM} (memory full; a restore may fit later). Everything else is
 * {@link StoreException.Fatal}, with the fix where there is one: {@code WRONGPASS} and {@code NOAUTH} (credentials),
 * {@code NOPERM} (the ACL user lacks a command), {@code ERR unknown command} (an old or restricted server),
 * {@code MOVED}/{@code ASK}/{@code CROSSSLOT} (a Redis Cluster, which this adapter does not serve).
 *
 * <p>A failure without a server reply (connection refused or lost, command timed out, commands rejected while
 * reconnecting) is {@link StoreException.Retriable}: the same call may go through once the server is back.
 */
public final class RedisFailures {

    private static final List<String> RETRIABLE_REPLIES =
            List.of("LOADING", "BUSY", "TRYAGAIN", "MASTERDOWN", "READONLY", "NOREPLICAS", "OOM");

    private RedisFailures() {}

    /** {@code action} failed with {@code failure}: the exception to throw, with the server's reply if there was one. */
    public static StoreException translate(String action, Throwable failure) {
        Throwable error = unwrap(failure);
        if (error instanceof StoreException store) {
            return store;
        }
        String reply = serverReply(error);
        if (reply == null) {
            return new StoreException.Retriable(action + ": " + describe(error), error);
        }
        return isRetriableReply(reply)
                ? new StoreException.Retriable(action + ": " + reply, error)
                : new StoreException.Fatal(action + ": " + reply + fixFor(reply), error);
    }

    /** The error reply of the server somewhere in {@code error}'s causes, or null if the server did not answer. */
    public static String serverReply(Throwable error) {
        for (Throwable e = error; e != null; e = e.getCause()) {
            if (e instanceof RedisCommandExecutionException && e.getMessage() != null) {
                return e.getMessage();
            }
            if (e.getCause() == e) {
                break;
            }
        }
        return null;
    }

    public static boolean isRetriableReply(String reply) {
        String code = code(reply);
        return RETRIABLE_REPLIES.contains(code);
    }

    /** The reply's error code: its first word, e.g. {@code BUSYKEY} or {@code ERR}. */
    public static String code(String reply) {
        int space = reply.indexOf(' ');
        return (space < 0 ? reply : reply.substring(0, space)).toUpperCase(Locale.ROOT);
    }

    private static String fixFor(String reply) {
        String code = code(reply);
        return switch (code) {
            case "WRONGPASS", "NOAUTH" -> "; check the connection's username and password";
            case "NOPERM" ->
                "; grant the connection's ACL user PING, INFO, EXISTS, TYPE, DUMP, PTTL, UNLINK and RESTORE"
                        + " on the dataset's keys";
            case "MOVED", "ASK", "CROSSSLOT" ->
                "; this is a Redis Cluster, which the adapter does not serve: point the"
                        + " connection at a standalone server or a proxy";
            default ->
                reply.toLowerCase(Locale.ROOT).startsWith("err unknown command")
                        ? "; the server lacks or has renamed this command (UNLINK needs Redis 4.0+)"
                        : "";
        };
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable error = failure;
        while ((error instanceof ExecutionException || error instanceof CompletionException)
                && error.getCause() != null) {
            error = error.getCause();
        }
        return error;
    }

    private static String describe(Throwable error) {
        String message = error.getMessage();
        Throwable cause = error.getCause();
        if (cause != null && cause.getMessage() != null && (message == null || !message.contains(cause.getMessage()))) {
            message = (message == null ? "" : message + ": ") + cause.getMessage();
        }
        return error.getClass().getSimpleName() + (message == null ? "" : " (" + message + ")");
    }
}
