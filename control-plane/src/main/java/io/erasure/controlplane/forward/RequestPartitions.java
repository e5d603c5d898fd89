package io.erasure.controlplane.forward;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Keeps {@code deletion_requests}' monthly partitions (UTC months): creates them
 * {@code erasure.forward.months-ahead} ahead, deletes finished requests of each aggregate type past its
 * retention ({@code erasure.forward.retention.<type>}), and drops a month once it is past the longest
 * retention. A request that is not PURGED is never removed: an unresolved request stays visible (and
 * alerting) whatever its age.
 */
@Component
public class RequestPartitions {

    private static final String DELETE_PURGED = """
            DELETE FROM deletion_requests WHERE aggregate_type = ? AND state = 'PURGED'
                AND created_at < ?
            RETURNING id""";

    private static final Logger log = LoggerFactory.getLogger(RequestPartitions.class);
    private static final String PREFIX = "deletion_requests_";

    private final JdbcTemplate jdbc;
    private final ForwardProperties properties;
    private final Clock clock;

    public RequestPartitions(JdbcTemplate jdbc, ForwardProperties properties, Clock clock) {
        this.jdbc = jdbc;
        this.properties = properties;
        this.clock = clock;
    }

    @Scheduled(
            initialDelayString = "${erasure.forward.partitions-initial-delay:0s}",
            fixedDelayString = "${erasure.forward.partitions-interval:6h}")
    public void maintainQuietly() {
        try {
            maintain(clock.instant());
        } catch (RuntimeException e) {
            log.warn("deletion_requests partition maintenance failed, will retry: {}", e.toString());
        }
    }

    public void maintain(Instant now) {
        YearMonth current = YearMonth.from(now.atZone(ZoneOffset.UTC));
        for (int i = 0; i <= properties.monthsAhead(); i++) {
            create(current.plusMonths(i));
        }
        for (String type : jdbc.queryForList("SELECT DISTINCT aggregate_type FROM forward_entities", String.class)) {
            List<String> gone = jdbc.queryForList(
                    DELETE_PURGED, String.class, type, Timestamp.from(now.minus(properties.retentionOf(type))));
            forgetDetails(gone);
            if (!gone.isEmpty()) {
                log.info(
                        "deleted {} PURGED requests of {} past their retention {}",
                        gone.size(),
                        type,
                        properties.retentionOf(type));
            }
        }
        Instant oldestKept = now.minus(properties.longestRetention());
        for (Map.Entry<String, YearMonth> partition : partitions().entrySet()) {
            Instant end = start(partition.getValue().plusMonths(1));
            if (!end.isAfter(oldestKept)) {
                drop(partition.getKey());
            }
        }
    }

    private void create(YearMonth month) {
        jdbc.execute("CREATE TABLE IF NOT EXISTS " + name(month) + " PARTITION OF deletion_requests FOR VALUES FROM ('"
                + start(month) + "') TO ('" + start(month.plusMonths(1)) + "')");
    }

    private void drop(String partition) {
        Integer unresolved =
                jdbc.queryForObject("SELECT count(*) FROM " + partition + " WHERE state <> 'PURGED'", Integer.class);
        if (unresolved != null && unresolved > 0) {
            log.warn("partition {} is past retention but holds {} unresolved requests; kept", partition, unresolved);
            return;
        }
        forgetDetails(jdbc.queryForList("SELECT id FROM " + partition, String.class));
        jdbc.execute("DROP TABLE " + partition);
        log.info("dropped partition {} (past the longest retention {})", partition, properties.longestRetention());
    }

    private void forgetDetails(List<String> requestIds) {
        if (requestIds.isEmpty()) {
            return;
        }
        String[] ids = requestIds.toArray(String[]::new);
        jdbc.update("DELETE FROM forward_targets WHERE request_id = ANY (?)", (Object) ids);
        jdbc.update("DELETE FROM forward_batches WHERE request_id = ANY (?)", (Object) ids);
        jdbc.update("DELETE FROM forward_resolved_tasks WHERE request_id = ANY (?)", (Object) ids);
    }

    /** The attached partitions by name, with their month. */
    Map<String, YearMonth> partitions() {
        List<String> names = jdbc.queryForList("""
                SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                JOIN pg_class p ON p.oid = i.inhparent JOIN pg_namespace n ON n.oid = p.relnamespace
                WHERE p.relname = 'deletion_requests' AND n.nspname = current_schema()""", String.class);
        Map<String, YearMonth> months = new TreeMap<>();
        for (String name : names) {
            if (name.matches(PREFIX + "\\d{4}_\\d{2}")) {
                String suffix = name.substring(PREFIX.length());
                months.put(
                        name,
                        YearMonth.of(Integer.parseInt(suffix.substring(0, 4)), Integer.parseInt(suffix.substring(5))));
            }
        }
        return months;
    }

    static String name(YearMonth month) {
        return PREFIX + String.format("%04d_%02d", month.getYear(), month.getMonthValue());
    }

    private static Instant start(YearMonth month) {
        return LocalDate.of(month.getYear(), month.getMonth(), 1)
                .atStartOfDay(ZoneOffset.UTC)
                .toInstant();
    }
}
