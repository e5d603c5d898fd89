package io.erasure.store.redis;

import io.erasure.store.spi.StoreException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.ByteArrayOutput;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Commands sent without waiting for their replies, then awaited together: one round trip for many keys. A
 * {@link Batch} collects a call's commands and hands them to the connection in one write, so a thousand keys cost
 * one flush rather than a thousand. The connection is shared by every caller of the adapter (Lettuce connections
 * are thread-safe and keep each caller's replies in order), so nothing here uses transactions or connection-wide
 * state such as disabling auto-flush.
 */
public final class Pipeline {

    static final RedisCodec<String, byte[]> CODEC = RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE);

    private final StatefulRedisConnection<String, byte[]> connection;
    private final Duration timeout;

    public Pipeline(StatefulRedisConnection<String, byte[]> connection, Duration timeout) {
        this.connection = connection;
        this.timeout = timeout;
    }

    /** A single command, sent at once; returns with the reply's future. */
    public RedisAsyncCommands<String, byte[]> send() {
        return connection.async();
    }

    /** An empty batch of commands, written to the connection together by {@link Batch#send()}. */
    public Batch batch() {
        return new Batch();
    }

    /** The replies, in order; any failed command fails the whole call ({@link RedisFailures}). */
    public <T> List<T> values(String action, List<? extends RedisFuture<T>> futures) {
        List<Reply<T>> replies = replies(action, futures);
        List<T> values = new ArrayList<>(replies.size());
        for (Reply<T> reply : replies) {
            if (reply.error() != null) {
                throw RedisFailures.translate(action, reply.error());
            }
            values.add(reply.value());
        }
        return values;
    }

    public <T> T value(String action, RedisFuture<T> future) {
        return values(action, List.of(future)).get(0);
    }

    /**
     * Every command's reply or error, in order, for callers to whom an error reply is an outcome ({@code BUSYKEY}).
     * A command that got no reply in time fails the whole call as {@link StoreException.Retriable}.
     */
    public <T> List<Reply<T>> replies(String action, List<? extends RedisFuture<T>> futures) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Reply<T>> replies = new ArrayList<>(futures.size());
        for (RedisFuture<T> future : futures) {
            try {
                long left = Math.max(0, deadline - System.nanoTime());
                replies.add(new Reply<>(future.get(left, TimeUnit.NANOSECONDS), null));
            } catch (ExecutionException e) {
                replies.add(new Reply<>(null, e.getCause() == null ? e : e.getCause()));
            } catch (TimeoutException e) {
                throw new StoreException.Retriable(action + ": no reply within " + timeout.toMillis() + " ms", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreException.Retriable(action + ": interrupted while waiting for Redis", e);
            }
        }
        return replies;
    }

    /**
     * Commands collected for one write; each method returns the future of its reply, completed after {@link #send()}.
     */
    public final class Batch {

        private final List<RedisCommand<String, byte[], ?>> commands = new ArrayList<>();

        private Batch() {}

        public RedisFuture<byte[]> dump(String key) {
            return add(CommandType.DUMP, new ByteArrayOutput<>(CODEC), args().addKey(key));
        }

        public RedisFuture<Long> pttl(String key) {
            return add(CommandType.PTTL, new IntegerOutput<>(CODEC), args().addKey(key));
        }

        public RedisFuture<String> type(String key) {
            return add(CommandType.TYPE, new StatusOutput<>(CODEC), args().addKey(key));
        }

        public RedisFuture<Long> exists(String key) {
            return add(CommandType.EXISTS, new IntegerOutput<>(CODEC), args().addKey(key));
        }

        public RedisFuture<Long> unlink(List<String> keys) {
            return add(CommandType.UNLINK, new IntegerOutput<>(CODEC), args().addKeys(keys));
        }

        /** {@code RESTORE key ttl payload}, never with {@code REPLACE}: an existing key fails with {@code BUSYKEY}. */
        public RedisFuture<String> restoreIfAbsent(String key, long ttlMillis, byte[] payload) {
            return add(
                    CommandType.RESTORE,
                    new StatusOutput<>(CODEC),
                    args().addKey(key).add(ttlMillis).addValue(payload));
        }

        /** Writes every collected command to the connection at once. */
        public void send() {
            if (!commands.isEmpty()) {
                connection.dispatch(List.copyOf(commands));
                commands.clear();
            }
        }

        private static CommandArgs<String, byte[]> args() {
            return new CommandArgs<>(CODEC);
        }

        private <T> RedisFuture<T> add(
                CommandType type, CommandOutput<String, byte[], T> output, CommandArgs<String, byte[]> args) {
            AsyncCommand<String, byte[], T> command = new AsyncCommand<>(new Command<>(type, output, args));
            commands.add(command);
            return command;
        }
    }

    /** A command's reply, or the error it failed with. */
    public record Reply<T>(T value, Throwable error) {}
}
