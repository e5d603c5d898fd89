package io.erasure.support.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** Issue 18 item 10: outside the local profile a service refuses the demo's users and keys, naming what to set. */
class LocalOnlyTest {

    private static final String BCRYPT = "{bcrypt}$2a$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW";

    @Test
    void theDemoUsersAndKeysOfTheLocalProfileAreRefusedWithoutIt() {
        Map<String, Object> local = new HashMap<>();
        local.put("erasure.access.users[0].name", "operator");
        local.put("erasure.access.users[0].password", "{noop}operator");
        local.put("erasure.deletion-log.master-key", "bG9jYWwtb25seS1kZWxldGlvbi1sb2ctbWFzdGVyLWs=");
        local.put("erasure.receipts.signing-key", "local-only-receipt-signing-key-0123456789abcdef");
        local.put("erasure.signing.local-keys", "true");

        assertThatThrownBy(() -> postProcess(local))
                .hasMessageContaining("outside the 'local' profile")
                .hasMessageContaining("erasure.access.users[0] ('operator') has a plain-text {noop} password")
                .hasMessageContaining("erasure.deletion-log.master-key is the local-only value")
                .hasMessageContaining("ERASURE_DELETIONLOG_MASTERKEY")
                .hasMessageContaining("erasure.receipts.signing-key is the local-only value")
                .hasMessageContaining("ERASURE_RECEIPTS_SIGNINGKEY")
                .hasMessageContaining("erasure.signing.local-keys is true");
    }

    @Test
    void theLocalProfilesSigningKeysAreRefusedUnderAnyKeyId() {
        Map<String, Object> pasted = Map.of(
                "erasure.access.users[0].name",
                "alice",
                "erasure.access.users[0].password",
                BCRYPT,
                "erasure.signing.key-id",
                "control-plane-1",
                "erasure.signing.private-key",
                "MC4CAQAwBQYDK2VwBCIEIFP9YJnCLRIGnHdmcZEWO06/uijq2IzHGEgltoendJem",
                "erasure.signing.trusted-keys.cp-1.public-key",
                "MCowBQYDK2VwAyEAsWOAPnH82V2jzG5TuiHw8fXB9vlmYSp/EnWP/rP3LlM=");

        assertThatThrownBy(() -> postProcess(pasted))
                .hasMessageContaining("erasure.signing.private-key is a key pair half published with the source")
                .hasMessageContaining("erasure.signing.trusted-keys.cp-1.public-key is a key pair half published");
    }

    @Test
    void theLocalSigningKeysAreRefusedAsEnvironmentVariablesAndInAnyBase64Spelling() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
        environment
                .getPropertySources()
                .replace(
                        StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        new SystemEnvironmentPropertySource(
                                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                                Map.of(
                                        // as Helm passes it, from a Secret someone filled with the local profile's key
                                        "ERASURE_SIGNING_PRIVATEKEY",
                                        "MC4CAQAwBQYDK2VwBCIEIFP9YJnCLRIGnHdmcZEWO06/uijq2IzHGEgltoendJem")));
        environment
                .getPropertySources()
                .addFirst(new MapPropertySource(
                        "test",
                        Map.of(
                                "erasure.access.users[0].name",
                                "alice",
                                "erasure.access.users[0].password",
                                BCRYPT,
                                // without its padding: the key readers decode it to the same key
                                "erasure.signing.trusted-keys.cp-1.public-key",
                                "MCowBQYDK2VwAyEAsWOAPnH82V2jzG5TuiHw8fXB9vlmYSp/EnWP/rP3LlM")));

        assertThatThrownBy(() -> new LocalOnly().postProcessEnvironment(environment, new SpringApplication()))
                .hasMessageContaining("ERASURE_SIGNING_PRIVATEKEY is a key pair half published with the source")
                .hasMessageContaining("erasure.signing.trusted-keys.cp-1.public-key is a key pair half published");
    }

    @Test
    void everyKeyHalfOfAnApplicationLocalYmlIsAPublishedOne() throws IOException {
        Path root = Path.of("").toAbsolutePath();
        while (!Files.exists(root.resolve("mvnw"))) {
            root = root.getParent();
        }
        Map<String, String> halves = new TreeMap<>();
        Pattern key = Pattern.compile("(?m)^\\s*(private-key|public-key):\\s*(\\S+)\\s*$");
        try (Stream<Path> files = Files.walk(root, 5)) {
            for (Path file : files.filter(f -> f.endsWith(Path.of("src/main/resources/application-local.yml")))
                    .toList()) {
                Matcher found = key.matcher(Files.readString(file));
                while (found.find()) {
                    halves.put(root.relativize(file) + " " + found.group(1) + " " + found.group(2), found.group(2));
                }
            }
        }
        assertThat(halves).as("key halves of the application-local.yml files").hasSizeGreaterThanOrEqualTo(11);
        halves.forEach((where, half) -> assertThat(LocalOnly.PUBLISHED_SIGNING_KEYS)
                .as(where + ": refused outside" + " the local profile")
                .contains(half));
    }

    @Test
    void aServiceNoCallerCouldAuthenticateToIsRefused() {
        assertThatThrownBy(() -> postProcess(Map.of()))
                .hasMessageContaining("no caller could authenticate: set erasure.access.users");
    }

    @Test
    void realCredentialsOrTheLocalProfileStart() {
        Map<String, Object> real = Map.of(
                "erasure.access.users[0].name",
                "alice",
                "erasure.access.users[0].password",
                BCRYPT,
                "erasure.deletion-log.master-key",
                "c2VjcmV0LWtleS1mcm9tLWEtdmF1bHQtMDEyMzQ1Njc=");
        assertThatCode(() -> postProcess(real)).doesNotThrowAnyException();
        assertThatCode(() -> postProcess(
                        Map.of("spring.security.oauth2.resourceserver.jwt.issuer-uri", "https://idp.example.com/")))
                .doesNotThrowAnyException();

        Map<String, Object> demo = Map.of(
                "erasure.access.users[0].name", "operator", "erasure.access.users[0].password", "{noop}operator");
        assertThatCode(() -> postProcess(demo, LocalOnly.PROFILE)).doesNotThrowAnyException();
    }

    /** Runs the guard on an environment of exactly {@code properties} (not this JVM's, whose tests run as local). */
    private static void postProcess(Map<String, Object> properties, String... profiles) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
        environment.getPropertySources().remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
        environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
        environment.setActiveProfiles(profiles);
        new LocalOnly().postProcessEnvironment(environment, new SpringApplication());
    }
}
