package io.erasure.support.web;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * How large a request body this service reads ({@code erasure.http.*}). The platform's requests are small (a
 * dataset spec is a few KB, a recovery of {@value io.erasure.model.recovery.RecoveryScope.ByKeys#MAX_KEYS} keys
 * well under 1 MB), so the default refuses anything that could only be a mistake or an attack before it is parsed.
 *
 * @param maxRequestBody the largest body accepted, e.g. {@code 1MB} or {@code 512KB}; larger ones get 413
 */
@ConfigurationProperties("erasure.http")
public record RequestLimitsProperties(@DefaultValue("1MB") DataSize maxRequestBody) {

    /** The property's name, as refusals quote it. */
    public static final String MAX_REQUEST_BODY = "erasure.http.max-request-body";

    public RequestLimitsProperties {
        maxRequestBody = maxRequestBody == null ? DataSize.ofMegabytes(1) : maxRequestBody;
        if (maxRequestBody.toBytes() <= 0) {
            throw new IllegalArgumentException(
                    MAX_REQUEST_BODY + " must be a positive size such as 1MB, got " + maxRequestBody);
        }
    }
}
