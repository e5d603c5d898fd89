package io.erasure.audit.join;

import io.erasure.model.cutoff.CutoffTimestamp;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;

/**
 * Timestamps in backups are ISO-8601 strings: {@code 2024-01-31T02:00:00Z}, with an offset
 * ({@code +01:00}, PostgreSQL's {@code +00}), a space instead of {@code T}, up to nine fractional
 * digits; without an offset they are UTC.
 */
final class Timestamps {

    private static final DateTimeFormatter ISO = new DateTimeFormatterBuilder()
            .parseCaseInsensitive()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .optionalStart()
            .appendLiteral('T')
            .optionalEnd()
            .optionalStart()
            .appendLiteral(' ')
            .optionalEnd()
            .appendValue(ChronoField.HOUR_OF_DAY, 2)
            .appendLiteral(':')
            .appendValue(ChronoField.MINUTE_OF_HOUR, 2)
            .optionalStart()
            .appendLiteral(':')
            .appendValue(ChronoField.SECOND_OF_MINUTE, 2)
            .optionalEnd()
            .optionalStart()
            .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
            .optionalEnd()
            .optionalStart()
            .appendOffset("+HH:MM", "Z")
            .optionalEnd()
            .optionalStart()
            .appendOffset("+HH", "Z")
            .optionalEnd()
            .toFormatter();

    private Timestamps() {}

    /**
     * Micros since the epoch of the timestamp in {@code [from, to)}: the canonical
     * {@code yyyy-MM-ddTHH:mm:ss[.f]} form with {@code Z}, {@code +00}, {@code +00:00} or no
     * offset is read straight from the bytes (identifier backups hold millions); others go
     * through {@link #parseMicros(String)}.
     */
    static long parseMicros(byte[] b, int from, int to) {
        int n = to - from;
        if (n >= 19
                && b[from + 4] == '-'
                && b[from + 7] == '-'
                && (b[from + 10] == 'T' || b[from + 10] == ' ')
                && b[from + 13] == ':'
                && b[from + 16] == ':') {
            int year = digits(b, from, 4);
            int month = digits(b, from + 5, 2);
            int day = digits(b, from + 8, 2);
            int hour = digits(b, from + 11, 2);
            int minute = digits(b, from + 14, 2);
            int second = digits(b, from + 17, 2);
            int i = from + 19;
            long micros = 0;
            int fractionDigits = 0;
            if (i < to && b[i] == '.') {
                i++;
                while (i < to && b[i] >= '0' && b[i] <= '9') {
                    if (fractionDigits < 6) {
                        micros = micros * 10 + (b[i] - '0');
                    }
                    fractionDigits++;
                    i++;
                }
                for (int k = Math.min(fractionDigits, 6); k < 6; k++) {
                    micros *= 10;
                }
            }
            int rest = to - i;
            boolean utc = rest == 0
                    || (rest == 1 && b[i] == 'Z')
                    || (rest == 3 && b[i] == '+' && b[i + 1] == '0' && b[i + 2] == '0')
                    || (rest == 6
                            && b[i] == '+'
                            && b[i + 1] == '0'
                            && b[i + 2] == '0'
                            && b[i + 3] == ':'
                            && b[i + 4] == '0'
                            && b[i + 5] == '0');
            if (utc
                    && (year | month | day | hour | minute | second) >= 0
                    && month >= 1
                    && month <= 12
                    && day >= 1
                    && day <= 31
                    && hour < 24
                    && minute < 60
                    && second < 60
                    && fractionDigits <= 9
                    && (fractionDigits > 0 || i == from + 19)) {
                long epochSecond = daysFromCivil(year, month, day) * 86_400L + hour * 3600L + minute * 60L + second;
                return epochSecond * 1_000_000L + micros;
            }
        }
        return parseMicros(new String(b, from, n, StandardCharsets.UTF_8));
    }

    private static int digits(byte[] b, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            value = value * 10 + d;
        }
        return value;
    }

    // Howard Hinnant's days_from_civil: proleptic Gregorian date to days since 1970-01-01
    private static long daysFromCivil(int year, int month, int day) {
        int y = month <= 2 ? year - 1 : year;
        int era = Math.floorDiv(y, 400);
        int yearOfEra = y - era * 400;
        int dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
        int dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return era * 146_097L + dayOfEra - 719_468L;
    }

    /** Micros since the epoch. */
    static long parseMicros(String text) {
        try {
            var parsed = ISO.parseBest(text.trim(), OffsetDateTime::from, LocalDateTime::from);
            Instant instant = parsed instanceof OffsetDateTime odt
                    ? odt.toInstant()
                    : ((LocalDateTime) parsed).toInstant(ZoneOffset.UTC);
            return CutoffTimestamp.toMicros(instant);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException(
                    "'" + text + "' is not an ISO-8601 timestamp such as 2024-01-31T02:00:00Z", e);
        }
    }
}
