package io.erasure.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.erasure.infra.LocalEngines;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;

/**
 * A write authenticated by HTTP Basic, the credential a browser caches and sends to any page's request, needs
 * the header X-Requested-By, which no other site can make a browser send; a bearer token, which a browser never
 * sends on its own, needs none. The write is the actuator's loggers endpoint (an OPERATOR's; exposed for this
 * test), and tokens are checked against a key of this test ({@code jwt.public-key-location}).
 */
@SpringBootTest(
        webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = "management.endpoints.web.exposure.include=health,loggers")
class CrossSiteWriteGuardIT {

    private static final String LOGGER = "/actuator/loggers/io.erasure.audit.units";
    private static final KeyPair KEYS = rsaKeys();
    private static final Path PUBLIC_KEY = publicKeyFile();

    @DynamicPropertySource
    static void engines(DynamicPropertyRegistry registry) {
        LocalEngines.kafka().springProperties().forEach((name, value) -> registry.add(name, () -> value));
        LocalEngines.s3().springProperties().forEach((name, value) -> registry.add(name, () -> value));
        registry.add(
                "spring.security.oauth2.resourceserver.jwt.public-key-location",
                () -> PUBLIC_KEY.toUri().toString());
    }

    @LocalServerPort
    int port;

    @AfterEach
    void resetTheLevel() {
        setLevel(basic("operator"), null, "tests").expectStatus().isNoContent();
    }

    @Test
    void aWriteWithBasicCredentialsIsRefusedWithoutTheHeaderAndAnsweredWithIt() {
        RestTestClient operator = basic("operator");

        setLevel(operator, "DEBUG")
                .expectStatus()
                .isForbidden()
                .expectBody()
                .jsonPath("$.detail")
                .value(String.class, detail -> assertThat(detail).contains("X-Requested-By", "HTTP Basic"));
        assertThat(configuredLevel()).as("the refused write changed nothing").isNull();

        setLevel(operator, "DEBUG", "erasure").expectStatus().isNoContent();
        assertThat(configuredLevel()).isEqualTo("DEBUG");
    }

    @Test
    void aBearerTokenWritesWithoutTheHeaderWhereBasicCredentialsCannot() {
        RestTestClient bearer = client(token("ci-operator", List.of("OPERATOR")));

        setLevel(bearer, "TRACE").expectStatus().isNoContent();
        assertThat(configuredLevel()).isEqualTo("TRACE");
        setLevel(basic("operator"), "WARN").expectStatus().isForbidden();
        assertThat(configuredLevel()).isEqualTo("TRACE");
        // the token still decides who may write
        setLevel(client(token("ci-viewer", List.of("VIEWER"))), "WARN")
                .expectStatus()
                .isForbidden();
        setLevel(client("Bearer not-a-token"), "WARN").expectStatus().isUnauthorized();
    }

    @Test
    void aBodyOverTheLimitIs413EvenOnAServiceWithoutAnApiAndChangesNothing() {
        String padded = "{\"configuredLevel\": \"DEBUG\", \"padding\": \"" + "x".repeat(1_200_000) + "\"}";

        basic("operator")
                .post()
                .uri(LOGGER)
                .contentType(MediaType.APPLICATION_JSON)
                .header("X-Requested-By", "tests")
                .body(padded)
                .exchange()
                .expectStatus()
                .isEqualTo(413)
                .expectBody()
                .jsonPath("$.detail")
                .value(
                        String.class,
                        detail -> assertThat(detail)
                                .contains("larger than 1048576 bytes", "erasure.http.max-request-body"));
        assertThat(configuredLevel()).as("the refused write changed nothing").isNull();
    }

    /** POSTs the logger's level (null: back to inherited), with the X-Requested-By header if one is given. */
    private static RestTestClient.ResponseSpec setLevel(RestTestClient client, String level, String... requestedBy) {
        RestTestClient.RequestBodySpec post = client.post().uri(LOGGER).contentType(MediaType.APPLICATION_JSON);
        if (requestedBy.length > 0) {
            post = post.header("X-Requested-By", requestedBy);
        }
        return post.body(level == null ? "{\"configuredLevel\": null}" : "{\"configuredLevel\": \"" + level + "\"}")
                .exchange();
    }

    private String configuredLevel() {
        return basic("operator")
                .get()
                .uri(LOGGER)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(LoggerLevels.class)
                .returnResult()
                .getResponseBody()
                .configuredLevel();
    }

    record LoggerLevels(String configuredLevel, String effectiveLevel) {}

    /** A client authenticated as a user of application.yml (the password equals the name). */
    private RestTestClient basic(String user) {
        return RestTestClient.bindToServer()
                .baseUrl("http://localhost:" + port)
                .defaultHeaders(h -> h.setBasicAuth(user, user))
                .build();
    }

    private RestTestClient client(String authorization) {
        return RestTestClient.bindToServer()
                .baseUrl("http://localhost:" + port)
                .defaultHeader("Authorization", authorization)
                .build();
    }

    /** A token as an OAuth2 issuer signs it, with the platform's {@code roles} claim. */
    private static String token(String subject, List<String> roles) {
        Instant now = Instant.now();
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .subject(subject)
                .claim("roles", roles)
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(Duration.ofMinutes(5))))
                .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.RS256), claims);
        try {
            jwt.sign(new RSASSASigner(KEYS.getPrivate()));
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return "Bearer " + jwt.serialize();
    }

    private static KeyPair rsaKeys() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path publicKeyFile() {
        try {
            Path file = Files.createTempFile("issuer-", ".pem");
            file.toFile().deleteOnExit();
            String body = Base64.getMimeEncoder(64, "\n".getBytes())
                    .encodeToString(KEYS.getPublic().getEncoded());
            Files.writeString(file, "-----BEGIN PUBLIC KEY-----\n" + body + "\n-----END PUBLIC KEY-----\n");
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
