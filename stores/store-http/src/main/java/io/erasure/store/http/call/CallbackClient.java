package io.erasure.store.http.call;

import io.erasure.store.http.HttpCallbackSettings;
import io.erasure.store.http.request.CallbackRequest;
import io.erasure.store.http.request.SecretHeaders;
import io.erasure.store.http.target.TargetPolicy;
import io.erasure.store.spi.StoreException;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a {@link CallbackRequest} to the owner, one attempt at a time, with Resilience4j retries: exponential
 * backoff with jitter from {@code backoff-ms}, up to {@code max-attempts}. What is retried: timeouts, connection
 * failures, 408, 429 and 5xx (a {@code Retry-After} is honoured when it is at most {@link #MAX_RETRY_AFTER};
 * a longer one ends the call as retriable, for the caller's own backoff). What is not: other 4xx and redirects
 * ({@link StoreException.Fatal}), which retrying cannot fix. Every attempt re-checks the target
 * ({@link TargetPolicy}) and carries the same {@code Idempotency-Key}, so the owner applies a batch once however
 * often it arrives.
 *
 * <p>Secret header values are resolved just before sending and never put in a message: response excerpts are
 * redacted in case the owner echoes a header back.
 */
public final class CallbackClient {

    /** The longest {@code Retry-After} this call sleeps through; a longer one is left to the caller's backoff. */
    public static final Duration MAX_RETRY_AFTER = Duration.ofSeconds(30);
    /** Headers the JDK client sets itself, and the idempotency key the platform owns. */
    public static final Set<String> RESERVED_HEADERS = Set.of("connection", "content-length", "expect", "host", "upgrade",
            CallbackRequest.IDEMPOTENCY_KEY.toLowerCase(Locale.ROOT));

    private static final Logger LOG = LoggerFactory.getLogger(CallbackClient.class);
    private static final int EXCERPT_CHARS = 200;
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

    private final HttpClient http;
    private final TargetPolicy policy;
    private final SecretHeaders secrets;
    private final Duration timeout;
    private final int maxAttempts;
    private final Retry retry;
    private final Clock clock;

    public CallbackClient(HttpClient http, TargetPolicy policy, SecretHeaders secrets, HttpCallbackSettings settings,
                          Clock clock) {
        this.http = http;
        this.policy = policy;
        this.secrets = secrets;
        this.timeout = Duration.ofMillis(settings.timeoutMs());
        this.maxAttempts = settings.maxAttempts();
        this.clock = clock;
        IntervalFunction backoff = IntervalFunction.ofExponentialRandomBackoff(
                Duration.ofMillis(settings.backoffMs()), 2.0, 0.5, MAX_BACKOFF);
        this.retry = Retry.of("http-callback-" + settings.ref(), RetryConfig.<Object>custom()
                .maxAttempts(maxAttempts)
                .intervalBiFunction((attempt, result) -> {
                    long millis = backoff.apply(attempt);
                    if (result.isLeft() && result.getLeft() instanceof Transient failed && failed.retryAfter != null) {
                        millis = Math.max(millis, failed.retryAfter.toMillis());
                    }
                    return millis;
                })
                .retryOnException(e -> e instanceof Transient failed && !failed.waitsTooLong())
                .build());
        retry.getEventPublisher().onRetry(event -> LOG.warn("{} (attempt {} of {}); retrying in {} ms",
                event.getLastThrowable().getMessage(), event.getNumberOfRetryAttempts(), maxAttempts,
                event.getWaitInterval().toMillis()));
    }

    /**
     * The body of the owner's 2xx answer.
     *
     * @throws StoreException.Fatal     if the owner refuses (4xx other than 408/429, a redirect), the target is not
     *                                  allowed, or a secret is unknown
     * @throws StoreException.Retriable if every attempt failed transiently
     */
    public String send(CallbackRequest request) {
        requireSendable(request.headers());
        Map<String, String> headers = secrets.resolve(request.headers());
        AtomicInteger attempts = new AtomicInteger();
        try {
            return retry.executeSupplier(() -> attempt(request, headers, attempts));
        } catch (Transient failed) {
            String why = failed.waitsTooLong()
                    ? "the owner asked to retry after " + failed.retryAfter.toSeconds() + " s, longer than the "
                    + MAX_RETRY_AFTER.toSeconds() + " s a call waits; retry later"
                    : "gave up after " + attempts.get() + " attempt(s) (max-attempts " + maxAttempts + ")";
            throw new StoreException.Retriable(failed.getMessage() + "; " + why, failed);
        }
    }

    /** Refuses headers the platform sets itself; answered at registration by {@code checkDataset}. */
    public static void requireSendable(Map<String, String> headers) {
        for (String name : headers.keySet()) {
            if (RESERVED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                throw new StoreException.Fatal("copy.httpCallback.headers must not set '" + name + "': the platform sets"
                        + " it (reserved: Connection, Content-Length, Expect, Host, Upgrade, Idempotency-Key); remove it");
            }
        }
    }

    private String attempt(CallbackRequest request, Map<String, String> headers, AtomicInteger attempts) {
        attempts.incrementAndGet();
        URI uri;
        try {
            uri = policy.check(request.field(), request.url());
        } catch (StoreException.Retriable unresolved) {
            throw new Transient(unresolved.getMessage(), null, unresolved);
        }
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri)
                .timeout(timeout)
                .method(request.method(), HttpRequest.BodyPublishers.ofString(request.body(), StandardCharsets.UTF_8));
        headers.forEach(builder::header);
        if (headers.keySet().stream().noneMatch("Content-Type"::equalsIgnoreCase)) {
            builder.header("Content-Type", "application/json");
        }
        if (request.idempotencyKey() != null) {
            builder.header(CallbackRequest.IDEMPOTENCY_KEY, request.idempotencyKey());
        }
        HttpResponse<String> response;
        try {
            response = http.send(builder.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (HttpTimeoutException e) {
            throw new Transient(request.target() + " did not answer within " + timeout.toMillis() + " ms (timeout-ms)", null, e);
        } catch (IOException e) {
            throw new Transient(request.target() + " failed: " + e, null, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException.Retriable(request.target() + " was interrupted", e);
        }
        return answer(request, response);
    }

    private String answer(CallbackRequest request, HttpResponse<String> response) {
        int status = response.statusCode();
        if (status >= 200 && status < 300) {
            return response.body();
        }
        String excerpt = excerpt(response.body());
        if (status == 408 || status == 429 || status >= 500 && status < 600) {
            Duration retryAfter = retryAfter(response.headers().firstValue("Retry-After").orElse(null), clock);
            throw new Transient(request.target() + " answered " + status + ": " + excerpt, retryAfter, null);
        }
        if (status >= 300 && status < 400) {
            String location = secrets.redact(response.headers().firstValue("Location").orElse("nowhere"));
            throw new StoreException.Fatal(request.target() + " answered " + status + ", a redirect to " + location
                    + "; redirects are not followed (they could lead off the allow-list): register the final URL");
        }
        String hint = status == 401 || status == 403
                ? "; check the credentials its headers send (secret:NAME references resolve from the connection's"
                + " secret.NAME settings)" : "";
        throw new StoreException.Fatal(request.target() + " was refused with " + status + ": " + excerpt + hint);
    }

    /** The body's first {@value #EXCERPT_CHARS} characters, secrets redacted (before cutting, so none is half shown). */
    private String excerpt(String body) {
        if (body == null || body.isBlank()) {
            return "(empty body)";
        }
        String redacted = secrets.redact(body);
        return "'" + (redacted.length() > EXCERPT_CHARS ? redacted.substring(0, EXCERPT_CHARS) + "..." : redacted) + "'";
    }

    /** A {@code Retry-After} of delta-seconds or an HTTP date, as a wait from now; null if absent or unreadable. */
    static Duration retryAfter(String header, Clock clock) {
        if (header == null || header.isBlank()) {
            return null;
        }
        String value = header.trim();
        if (value.chars().allMatch(Character::isDigit)) {
            return value.length() > 18 ? Duration.ofSeconds(Long.MAX_VALUE) : Duration.ofSeconds(Long.parseLong(value));
        }
        try {
            Duration until = Duration.between(clock.instant(),
                    ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
            return until.isNegative() ? Duration.ZERO : until;
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** One failed attempt worth retrying. */
    private static final class Transient extends RuntimeException {
        private final Duration retryAfter;

        Transient(String message, Duration retryAfter, Throwable cause) {
            super(message, cause);
            this.retryAfter = retryAfter;
        }

        boolean waitsTooLong() {
            return retryAfter != null && retryAfter.compareTo(MAX_RETRY_AFTER) > 0;
        }
    }
}
