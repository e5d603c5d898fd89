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
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.net.URI;
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
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.ParseException;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a {@link CallbackRequest} to the owner, one attempt at a time, with Resilience4j retries: exponential
 * backoff with jitter from {@code backoff-ms}, up to {@code max-attempts}. What is retried: timeouts, connection
 * failures, 408, 429 and 5xx (a {@code Retry-After} is honoured when it is at most {@link #MAX_RETRY_AFTER};
 * a longer one ends the call as retriable, for the caller's own backoff). What is not: other 4xx and redirects
 * ({@link StoreException.Fatal}), which retrying cannot fix. Every attempt re-checks the URL against the allow-list
 * ({@link TargetPolicy}) and carries the same {@code Idempotency-Key}, so the owner applies a batch once however
 * often it arrives.
 *
 * <p>The HTTP client (Apache HttpClient 5, classic) resolves hosts only through {@link CheckedDnsResolver}: a new
 * connection is made to an address the policy checked in the same lookup, never to a second, unchecked answer. A
 * pooled connection is reused only for its own host and port, and was checked when it was made. Redirects, the
 * client's own retries, cookies and decompression are off: what is sent is what the plan shows.
 *
 * <p>Secret header values are resolved just before sending and never put in a message: response excerpts are
 * redacted in case the owner echoes a header back. The client's own header and wire loggers
 * ({@code org.apache.hc.client5.http.headers} and {@code .wire}) print every header at DEBUG: keep them above DEBUG
 * wherever callbacks run.
 */
public final class CallbackClient implements AutoCloseable {

    /** The longest {@code Retry-After} this call sleeps through; a longer one is left to the caller's backoff. */
    public static final Duration MAX_RETRY_AFTER = Duration.ofSeconds(30);
    /** Headers the HTTP client sets itself, and the idempotency key the platform owns. */
    public static final Set<String> RESERVED_HEADERS = Set.of(
            "connection",
            "content-length",
            "expect",
            "host",
            "transfer-encoding",
            "upgrade",
            CallbackRequest.IDEMPOTENCY_KEY.toLowerCase(Locale.ROOT));

    private static final Logger LOG = LoggerFactory.getLogger(CallbackClient.class);
    private static final int EXCERPT_CHARS = 200;
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    // an idle connection is dropped after this; a live one is re-resolved (and re-checked) at least this often
    private static final TimeValue CONNECTION_LIFETIME = TimeValue.ofMinutes(1);
    // per owner host and in all: a deletion replica runs a few lanes, each calling one owner at a time
    private static final int MAX_CONNECTIONS_PER_HOST = 20;
    private static final int MAX_CONNECTIONS = 100;

    private final CloseableHttpClient http;
    private final TargetPolicy policy;
    private final SecretHeaders secrets;
    private final Duration timeout;
    private final int maxAttempts;
    private final Retry retry;
    private final Clock clock;

    public CallbackClient(TargetPolicy policy, SecretHeaders secrets, HttpCallbackSettings settings, Clock clock) {
        this.http = httpClient(policy, Timeout.ofMilliseconds(settings.timeoutMs()));
        this.policy = policy;
        this.secrets = secrets;
        this.timeout = Duration.ofMillis(settings.timeoutMs());
        this.maxAttempts = settings.maxAttempts();
        this.clock = clock;
        IntervalFunction backoff = IntervalFunction.ofExponentialRandomBackoff(
                Duration.ofMillis(settings.backoffMs()), 2.0, 0.5, MAX_BACKOFF);
        this.retry = Retry.of(
                "http-callback-" + settings.ref(),
                RetryConfig.<Object>custom()
                        .maxAttempts(maxAttempts)
                        .intervalBiFunction((attempt, result) -> {
                            long millis = backoff.apply(attempt);
                            if (result.isLeft()
                                    && result.getLeft() instanceof Transient failed
                                    && failed.retryAfter != null) {
                                millis = Math.max(millis, failed.retryAfter.toMillis());
                            }
                            return millis;
                        })
                        .retryOnException(e -> e instanceof Transient failed && !failed.waitsTooLong())
                        .build());
        retry.getEventPublisher()
                .onRetry(event -> LOG.warn(
                        "{} (attempt {} of {}); retrying in {} ms",
                        event.getLastThrowable().getMessage(),
                        event.getNumberOfRetryAttempts(),
                        maxAttempts,
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
        Map<String, String> headers = secrets.resolve(request.headers(), request.ownerTeam());
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
                throw new StoreException.Fatal(
                        "copy.httpCallback.headers must not set '" + name + "': the platform sets"
                                + " it (reserved: Connection, Content-Length, Expect, Host, Transfer-Encoding, Upgrade,"
                                + " Idempotency-Key); remove it");
            }
        }
    }

    /** Closes the pooled connections. */
    @Override
    public void close() {
        http.close(CloseMode.GRACEFUL);
    }

    private static CloseableHttpClient httpClient(TargetPolicy policy, Timeout timeout) {
        return HttpClients.custom()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                        .setDnsResolver(new CheckedDnsResolver(policy))
                        // the JVM's trust store and javax.net.ssl settings; certificates checked against the host name
                        .setTlsSocketStrategy(DefaultClientTlsStrategy.createSystemDefault())
                        .setDefaultConnectionConfig(ConnectionConfig.custom()
                                .setConnectTimeout(timeout)
                                .setSocketTimeout(timeout)
                                .setTimeToLive(CONNECTION_LIFETIME)
                                .build())
                        .setMaxConnPerRoute(MAX_CONNECTIONS_PER_HOST)
                        .setMaxConnTotal(MAX_CONNECTIONS)
                        .build())
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setConnectionRequestTimeout(timeout)
                        .setResponseTimeout(timeout)
                        .build())
                // a redirect could lead off the allow-list, so it is reported, never followed
                .disableRedirectHandling()
                // retries are this class's, with the same idempotency key and a fresh check
                .disableAutomaticRetries()
                .disableCookieManagement()
                .disableAuthCaching()
                .disableContentCompression()
                .evictIdleConnections(CONNECTION_LIFETIME)
                .build();
    }

    private String attempt(CallbackRequest request, Map<String, String> headers, AtomicInteger attempts) {
        attempts.incrementAndGet();
        URI uri = policy.allowedUri(request.field(), request.url());
        HttpUriRequestBase call = new HttpUriRequestBase(request.method(), uri);
        call.setEntity(new ByteArrayEntity(request.body().getBytes(StandardCharsets.UTF_8), null));
        headers.forEach(call::addHeader);
        if (headers.keySet().stream().noneMatch("Content-Type"::equalsIgnoreCase)) {
            call.addHeader("Content-Type", "application/json");
        }
        if (request.idempotencyKey() != null) {
            call.addHeader(CallbackRequest.IDEMPOTENCY_KEY, request.idempotencyKey());
        }
        Answer answer;
        try {
            answer = http.execute(call, Answer::read);
        } catch (StoreException.Fatal refused) {
            // the resolver refused the address the host resolved to
            throw new StoreException.Fatal(
                    request.field() + " " + request.url() + " is refused: " + refused.getMessage(), refused);
        } catch (SocketTimeoutException | ConnectionRequestTimeoutException e) {
            throw new Transient(
                    request.target() + " did not answer within " + timeout.toMillis() + " ms (timeout-ms)", null, e);
        } catch (InterruptedIOException e) {
            Thread.currentThread().interrupt();
            throw new StoreException.Retriable(request.target() + " was interrupted", e);
        } catch (IOException e) {
            throw new Transient(request.target() + " failed: " + e, null, e);
        }
        return answer(request, answer);
    }

    private String answer(CallbackRequest request, Answer response) {
        int status = response.status();
        if (status >= 200 && status < 300) {
            return response.body();
        }
        String excerpt = excerpt(response.body());
        if (status == 408 || status == 429 || status >= 500 && status < 600) {
            Duration retryAfter = retryAfter(response.retryAfter(), clock);
            throw new Transient(request.target() + " answered " + status + ": " + excerpt, retryAfter, null);
        }
        if (status >= 300 && status < 400) {
            String location = secrets.redact(response.location() == null ? "nowhere" : response.location());
            throw new StoreException.Fatal(request.target() + " answered " + status + ", a redirect to " + location
                    + "; redirects are not followed (they could lead off the allow-list): register the final URL");
        }
        String hint = status == 401 || status == 403
                ? "; check the credentials its headers send (secret:NAME references resolve from the connection's"
                        + " secret.NAME settings)"
                : "";
        throw new StoreException.Fatal(request.target() + " was refused with " + status + ": " + excerpt + hint);
    }

    /**
     * The body's first {@value #EXCERPT_CHARS} characters, secrets redacted (before cutting, so none is half shown).
     */
    private String excerpt(String body) {
        if (body == null || body.isBlank()) {
            return "(empty body)";
        }
        String redacted = secrets.redact(body);
        return "'" + (redacted.length() > EXCERPT_CHARS ? redacted.substring(0, EXCERPT_CHARS) + "..." : redacted)
                + "'";
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
            Duration until = Duration.between(
                    clock.instant(),
                    ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME)
                            .toInstant());
            return until.isNegative() ? Duration.ZERO : until;
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** What the owner answered, read before the response is closed. */
    private record Answer(int status, String body, String retryAfter, String location) {

        static Answer read(ClassicHttpResponse response) throws IOException, ParseException {
            String body = response.getEntity() == null
                    ? ""
                    : EntityUtils.toString(response.getEntity(), StandardCharsets.UTF_8);
            return new Answer(
                    response.getCode(),
                    body,
                    value(response.getFirstHeader("Retry-After")),
                    value(response.getFirstHeader("Location")));
        }

        private static String value(Header header) {
            return header == null ? null : header.getValue();
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
