package io.erasure.chaos;

import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Live traffic that keeps rewriting the trial's {@link TrialData#late()} members while their run deletes: each one's
 * profile (a conditional {@code UPDATE ... IF EXISTS}, so the writer knows whether the row was there), its first order
 * and its second order's first item (an {@code UPDATE} whose count says the same). A write that found its row is newer
 * than the cut-off, so that row must survive with the value written; a write that found nothing came after a legitimate
 * delete. A write whose outcome is unknown (a timeout, a dropped connection during a fault) makes its row uncertain,
 * and the checks leave it out.
 */
final class LiveWriter implements AutoCloseable {

    private final ChaosStores stores;
    private final TrialData data;
    private final Thread thread;
    private volatile boolean stopped;
    private boolean started;
    private int round;

    /** Member → the last display name a write put in an existing profile. */
    final Map<Long, String> profiles = new ConcurrentHashMap<>();
    /** Order → the last total a write put in an existing order. */
    final Map<Long, BigDecimal> orders = new ConcurrentHashMap<>();
    /** Item → the last quantity a write put in an existing item (its order must survive with it). */
    final Map<Long, Integer> items = new ConcurrentHashMap<>();

    final Set<Long> uncertainProfiles = ConcurrentHashMap.newKeySet();
    final Set<Long> uncertainOrders = ConcurrentHashMap.newKeySet();

    LiveWriter(ChaosStores stores, TrialData data) {
        this.stores = stores;
        this.data = data;
        this.thread = new Thread(this::write, "chaos-live-writer");
        this.thread.setDaemon(true);
    }

    void start() {
        started = true;
        thread.start();
    }

    boolean started() {
        return started;
    }

    private void write() {
        PreparedStatement profile = null;
        Connection pg = null;
        while (!stopped) {
            round++;
            for (long member : data.late()) {
                String name = "Member " + member + " (live write " + round + ")";
                try {
                    if (profile == null) {
                        // prepared here, not once: the node may be restarting when the writer starts
                        profile = stores.cassandra()
                                .prepare("UPDATE chaos.profiles SET display_name = ? WHERE member_id = ? IF EXISTS");
                    }
                    if (stores.cassandra().execute(profile.bind(name, member)).wasApplied()) {
                        profiles.put(member, name);
                    }
                } catch (RuntimeException unknownOutcome) {
                    if (profile != null) {
                        uncertainProfiles.add(member);
                    }
                }
                long first = TrialData.order(member, 0);
                long second = TrialData.order(member, 1);
                long item = TrialData.item(second, 0);
                try {
                    if (pg == null) {
                        pg = stores.postgres();
                    }
                    BigDecimal total = BigDecimal.valueOf(50_000 + round, 2);
                    if (update(
                            pg,
                            "UPDATE chaos.orders SET total = ?, updated_at = now() WHERE order_id = ?",
                            total,
                            first)) {
                        orders.put(first, total);
                    }
                    int quantity = 100 + round;
                    if (update(
                            pg,
                            "UPDATE chaos.order_items SET quantity = ?, updated_at = now() WHERE item_id = ?",
                            quantity,
                            item)) {
                        items.put(item, quantity);
                    }
                } catch (SQLException | RuntimeException unknownOutcome) {
                    uncertainOrders.add(first);
                    uncertainOrders.add(second);
                    close(pg);
                    pg = null;
                }
            }
            sleep(250);
        }
        close(pg);
    }

    private static boolean update(Connection pg, String sql, Object value, long id) throws SQLException {
        try (var update = pg.prepareStatement(sql)) {
            update.setQueryTimeout(10);
            update.setObject(1, value);
            update.setLong(2, id);
            return update.executeUpdate() == 1;
        }
    }

    private static void close(Connection pg) {
        if (pg != null) {
            try {
                pg.close();
            } catch (SQLException ignored) {
                // the connection is gone already
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops writing and waits for the last write to finish, so what it recorded is final. */
    @Override
    public void close() throws InterruptedException {
        stopped = true;
        if (thread.isAlive()) {
            thread.join(120_000);
        }
        if (thread.isAlive()) {
            throw new IllegalStateException("the live writer did not stop within 2 minutes: its writes are not final");
        }
    }
}
