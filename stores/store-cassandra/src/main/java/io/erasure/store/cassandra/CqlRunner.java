package io.erasure.store.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.Statement;
import io.erasure.store.spi.StoreException.Retriable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * Runs CQL for the adapter: prepared statements cached by text, every statement at the configured
 * consistency and marked idempotent (reads, deletes and restores all carry fixed timestamps, so a
 * driver retry cannot change their effect), many statements at once with bounded concurrency, and
 * driver failures translated to {@link io.erasure.store.spi.StoreException}. Thread-safe.
 */
public final class CqlRunner {

    private final CqlSession session;
    private final ConsistencyLevel consistency;
    private final int concurrency;
    private final Map<String, PreparedStatement> prepared = new ConcurrentHashMap<>();
    private final LongAdder reads = new LongAdder();

    public CqlRunner(CqlSession session, ConsistencyLevel consistency, int concurrency) {
        this.session = session;
        this.consistency = consistency;
        this.concurrency = concurrency;
    }

    public CqlSession session() {
        return session;
    }

    public ConsistencyLevel consistency() {
        return consistency;
    }

    /** The prepared form of {@code cql}, prepared once per adapter. */
    public PreparedStatement prepare(String cql) {
        PreparedStatement statement = prepared.get(cql);
        if (statement != null) {
            return statement;
        }
        try {
            return prepared.computeIfAbsent(cql, session::prepare);
        } catch (RuntimeException e) {
            throw CassandraErrors.translate("preparing " + cql, e);
        }
    }

    /** {@code cql} bound to {@code values}, at the configured consistency. */
    public Statement<?> bind(String cql, List<?> values) {
        return configure(prepare(cql).bind(values.toArray()));
    }

    public <S extends Statement<S>> S configure(S statement) {
        return statement.setConsistencyLevel(consistency).setIdempotent(true);
    }

    /** The rows of the first page of each statement, in order; at most {@code concurrency} statements in flight. */
    public List<List<Row>> readAll(String doing, List<? extends Statement<?>> statements) {
        reads.add(statements.size());
        return runAll(doing, statements, resultSet -> CompletableFuture.completedFuture(firstPage(resultSet)));
    }

    /**
     * Every row of each statement, following its pages (each page counts as a read), in order; at most
     * {@code concurrency} statements in flight.
     */
    public List<List<Row>> readAllPages(String doing, List<? extends Statement<?>> statements) {
        reads.add(statements.size());
        return runAll(doing, statements, resultSet -> allPages(resultSet, new ArrayList<>()));
    }

    private CompletionStage<List<Row>> allPages(AsyncResultSet resultSet, List<Row> rows) {
        resultSet.currentPage().forEach(rows::add);
        if (!resultSet.hasMorePages()) {
            return CompletableFuture.completedFuture(rows);
        }
        reads.increment();
        return resultSet.fetchNextPage().thenCompose(next -> allPages(next, rows));
    }

    /** How many read statements and pages this runner has sent, so the load signal can tell its reads from others'. */
    public long readsSent() {
        return reads.sum();
    }

    /** Receives the rows of {@link #readEach}; answers false once it has enough, which stops all further reading. */
    @FunctionalInterface
    public interface RowSink {
        boolean accept(Row row);
    }

    /**
     * Every row of every statement, following the pages, into {@code sink}; at most {@code concurrency} statements
     * in flight, and no further statement or page is read once the sink has enough. The sink is called from driver
     * threads, for several statements at once, so it must be thread-safe and quick.
     */
    public void readEach(String doing, List<? extends Statement<?>> statements, RowSink sink) {
        List<CompletableFuture<Void>> futures = new ArrayList<>(statements.size());
        Semaphore inFlight = new Semaphore(concurrency);
        AtomicBoolean enough = new AtomicBoolean();
        for (Statement<?> statement : statements) {
            acquire(inFlight);
            if (enough.get()) {
                inFlight.release();
                break;
            }
            reads.increment();
            futures.add(session.executeAsync(statement)
                    .toCompletableFuture()
                    .thenCompose(resultSet -> drain(resultSet, sink, enough))
                    .whenComplete((result, failure) -> inFlight.release()));
        }
        try {
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).join();
        } catch (RuntimeException e) {
            throw CassandraErrors.translate(doing, e);
        }
    }

    private CompletionStage<Void> drain(AsyncResultSet resultSet, RowSink sink, AtomicBoolean enough) {
        for (Row row : resultSet.currentPage()) {
            if (enough.get() || !sink.accept(row)) {
                enough.set(true);
                return CompletableFuture.completedFuture(null);
            }
        }
        if (resultSet.hasMorePages() && !enough.get()) {
            reads.increment();
            return resultSet.fetchNextPage().thenCompose(next -> drain(next, sink, enough));
        }
        return CompletableFuture.completedFuture(null);
    }

    /** Executes every statement, at most {@code concurrency} in flight; fails with the first failure once all ended. */
    public void executeAll(String doing, List<? extends Statement<?>> statements) {
        runAll(doing, statements, resultSet -> CompletableFuture.completedFuture(Boolean.TRUE));
    }

    /** Like {@link #executeAll} but reports each statement's failure instead of throwing (null = success). */
    public List<Throwable> executeEach(List<? extends Statement<?>> statements) {
        List<CompletableFuture<Throwable>> futures = new ArrayList<>(statements.size());
        Semaphore inFlight = new Semaphore(concurrency);
        for (Statement<?> statement : statements) {
            acquire(inFlight);
            futures.add(session.executeAsync(statement)
                    .toCompletableFuture()
                    .handle((rs, failure) -> failure)
                    .whenComplete((ignored, alsoIgnored) -> inFlight.release()));
        }
        return futures.stream().map(CompletableFuture::join).toList();
    }

    private <T> List<T> runAll(
            String doing, List<? extends Statement<?>> statements, Function<AsyncResultSet, CompletionStage<T>> map) {
        List<CompletableFuture<T>> futures = new ArrayList<>(statements.size());
        Semaphore inFlight = new Semaphore(concurrency);
        for (Statement<?> statement : statements) {
            acquire(inFlight);
            futures.add(session.executeAsync(statement)
                    .toCompletableFuture()
                    .thenCompose(map)
                    .whenComplete((result, failure) -> inFlight.release()));
        }
        try {
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).join();
        } catch (RuntimeException e) {
            throw CassandraErrors.translate(doing, e);
        }
        return futures.stream().map(CompletableFuture::join).toList();
    }

    private static List<Row> firstPage(AsyncResultSet resultSet) {
        List<Row> rows = new ArrayList<>();
        resultSet.currentPage().forEach(rows::add);
        return rows;
    }

    private static void acquire(Semaphore inFlight) {
        try {
            inFlight.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Retriable("interrupted while waiting for Cassandra", e);
        }
    }
}
