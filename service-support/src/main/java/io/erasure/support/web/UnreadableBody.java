package io.erasure.support.web;

import io.erasure.model.check.Allowed;
import io.erasure.model.check.Require;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * What is wrong with a request body that could not be read, in a sentence that names the field by its JSON path
 * and says what it accepts: {@code field 'limits.maxRows' must be an integer between 0 and 9223372036854775807;
 * got 1e30}. What a field accepts comes from its {@link Allowed} words, else from its type; a record's own
 * refusal (an {@link IllegalArgumentException} from its constructor) is passed on as it is, since it already
 * names the field and the fix. Values are quoted cut ({@link Require#echo}), so an error is always short.
 */
public final class UnreadableBody {

    // Jackson's messages quote the value that did not fit in parentheses: "Numeric value (1e30) out of range"
    private static final Pattern QUOTED_VALUE = Pattern.compile("value \\(([^()]*)\\)");
    private static final Pattern FROM_STRING = Pattern.compile("from String \"(.*?)\"");

    private UnreadableBody() {}

    /** The problem's detail, and the field it is about (null for the body as a whole). */
    public record Problem(String detail, String field) {}

    public static Problem describe(Throwable e) {
        String refusal = null;
        JacksonException jackson = null;
        for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof IllegalArgumentException && cause.getMessage() != null) {
                refusal = cause.getMessage();
            }
            if (cause instanceof JacksonException j
                    && (jackson == null || !j.getPath().isEmpty())) {
                jackson = j;
            }
        }
        String field = jackson == null ? null : pathOf(jackson);
        if (refusal != null) {
            return new Problem(refusal, field);
        }
        if (jackson instanceof UnrecognizedPropertyException unknown) {
            return new Problem(unknownField(unknown, field), field);
        }
        if (jackson instanceof MismatchedInputException || jackson instanceof InputCoercionException) {
            String got = got(jackson);
            return new Problem(
                    (field == null ? "the request body" : "field '" + field + "'") + " must be " + allowed(jackson)
                            + (got == null ? "" : "; got " + got),
                    field);
        }
        if (jackson != null) {
            return new Problem(
                    "the request body is not valid JSON" + (field == null ? "" : " at '" + field + "'") + ": "
                            + firstLine(jackson.getOriginalMessage()),
                    field);
        }
        return new Problem(
                "the request body is missing or unreadable: " + firstLine(e.getMessage())
                        + "; send a JSON document with Content-Type: application/json",
                null);
    }

    /** {@code copies[0].target}: the path of the value that could not be read. */
    static String pathOf(JacksonException e) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference reference : e.getPath()) {
            if (reference.getPropertyName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(Require.truncate(reference.getPropertyName()));
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.isEmpty() ? null : path.toString();
    }

    private static String unknownField(UnrecognizedPropertyException e, String field) {
        Collection<Object> known = e.getKnownPropertyIds();
        String type = e.getReferringClass() == null
                ? "the request"
                : e.getReferringClass().getSimpleName();
        return "field '" + (field == null ? Require.truncate(e.getPropertyName()) : field) + "' is not known: " + type
                + (known == null || known.isEmpty()
                        ? " has no fields"
                        : " has " + known.stream().map(String::valueOf).sorted().collect(Collectors.joining(", ")))
                + ". Remove it or correct its name: unknown fields are refused, not ignored";
    }

    /** What the field accepts: its {@link Allowed} words, else what its type holds. */
    private static String allowed(JacksonException e) {
        List<JacksonException.Reference> path = e.getPath();
        if (!path.isEmpty()) {
            JacksonException.Reference last = path.get(path.size() - 1);
            Object from = last.from();
            Class<?> owner = from instanceof Class<?> type ? type : from == null ? null : from.getClass();
            if (owner != null && owner.isRecord() && last.getPropertyName() != null) {
                for (RecordComponent component : owner.getRecordComponents()) {
                    Allowed allowed = component.getAnnotation(Allowed.class);
                    if (allowed != null && component.getName().equals(last.getPropertyName())) {
                        return allowed.value();
                    }
                }
            }
        }
        Class<?> target = e instanceof MismatchedInputException m
                ? m.getTargetType()
                : e instanceof InputCoercionException c ? c.getTargetType() : null;
        return describeType(target);
    }

    static String describeType(Class<?> type) {
        if (type == null) {
            return "a value of another form";
        }
        if (type == int.class || type == Integer.class) {
            return "an integer between " + Integer.MIN_VALUE + " and " + Integer.MAX_VALUE;
        }
        if (type == long.class || type == Long.class) {
            return "an integer between " + Long.MIN_VALUE + " and " + Long.MAX_VALUE;
        }
        if (type == short.class
                || type == Short.class
                || type == byte.class
                || type == Byte.class
                || type == BigInteger.class) {
            return "an integer";
        }
        if (type == double.class
                || type == Double.class
                || type == float.class
                || type == Float.class
                || type == BigDecimal.class) {
            return "a number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type == Duration.class) {
            return "an ISO-8601 duration such as PT6H";
        }
        if (type == Instant.class || type == OffsetDateTime.class) {
            return "an ISO-8601 instant such as 2026-01-31T00:00:00Z";
        }
        if (type == UUID.class) {
            return "a UUID such as 123e4567-e89b-12d3-a456-426614174000";
        }
        if (type.isEnum()) {
            return "one of " + Arrays.toString(type.getEnumConstants());
        }
        if (type.isArray() || Collection.class.isAssignableFrom(type)) {
            return "an array";
        }
        if (Map.class.isAssignableFrom(type)) {
            return "a JSON object";
        }
        return "a JSON object (" + type.getSimpleName() + ")";
    }

    /** The value that did not fit, as the caller sent it, cut; null when Jackson's message does not say. */
    private static String got(JacksonException e) {
        String message = String.valueOf(e.getOriginalMessage());
        Matcher quoted = QUOTED_VALUE.matcher(message);
        if (e instanceof InvalidFormatException invalid
                && invalid.getValue() != null
                && !(invalid.getValue() instanceof Number)) {
            return Require.echo(invalid.getValue());
        }
        // a number as written (1e30), not as parsed (1.0E30)
        if (quoted.find()) {
            return Require.truncate(quoted.group(1));
        }
        if (e instanceof InvalidFormatException invalid && invalid.getValue() != null) {
            return Require.truncate(invalid.getValue().toString());
        }
        Matcher string = FROM_STRING.matcher(message);
        if (string.find()) {
            return Require.echo(string.group(1));
        }
        if (message.contains("`null`")) {
            return "null";
        }
        if (message.contains("START_ARRAY") || message.contains("from Array value")) {
            return "an array";
        }
        if (message.contains("START_OBJECT") || message.contains("from Object value")) {
            return "an object";
        }
        return null;
    }

    private static String firstLine(String message) {
        String text = String.valueOf(message);
        return Require.truncate(text.lines().findFirst().orElse(text));
    }
}
