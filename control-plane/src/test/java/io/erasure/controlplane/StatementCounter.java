package io.erasure.controlplane;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import javax.sql.DataSource;

/**
 * Counts the SQL statements executed through the data sources it wraps, by a key of the executing thread (its kind, or
 * one key for all): what tests and benchmarks use to tell how many round trips an event costs.
 */
public final class StatementCounter {

    private final Function<Thread, String> keyOf;
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    public StatementCounter(Function<Thread, String> keyOf) {
        this.keyOf = keyOf;
    }

    /** The statements executed so far, by key. */
    public Map<String, Long> byKey() {
        Map<String, Long> snapshot = new LinkedHashMap<>();
        counts.forEach((key, n) -> snapshot.put(key, n.sum()));
        return snapshot;
    }

    public long total() {
        return counts.values().stream().mapToLong(LongAdder::sum).sum();
    }

    /** {@code target}, counting every statement executed on its connections. */
    public DataSource wrap(DataSource target) {
        return proxy(DataSource.class, target, (t, method, args) -> {
            Object result = invoke(t, method, args);
            return result instanceof Connection connection ? connection(connection) : result;
        });
    }

    private Connection connection(Connection connection) {
        return proxy(Connection.class, connection, (target, method, args) -> {
            Object result = invoke(target, method, args);
            if (result instanceof Statement statement
                    && method.getName().matches("prepareStatement|createStatement|prepareCall")) {
                @SuppressWarnings("unchecked")
                Class<Statement> type = (Class<Statement>) method.getReturnType();
                return proxy(type, statement, (s, m, a) -> {
                    if (m.getName().startsWith("execute")) {
                        counts.computeIfAbsent(keyOf.apply(Thread.currentThread()), k -> new LongAdder())
                                .increment();
                    }
                    return invoke(s, m, a);
                });
            }
            return result;
        });
    }

    private interface Handler<T> {
        Object handle(T target, Method method, Object[] args) throws Throwable;
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<T> type, T target, Handler<T> handler) {
        InvocationHandler invocation = (p, method, args) -> {
            if (method.getName().equals("unwrap") || method.getName().equals("isWrapperFor")) {
                return invoke(target, method, args);
            }
            return handler.handle(target, method, args);
        };
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, invocation);
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
