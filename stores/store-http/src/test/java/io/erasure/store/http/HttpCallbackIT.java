package io.erasure.store.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.StoreKind;
import io.erasure.store.http.FakeOwnerService.Received;
import io.erasure.store.http.target.HostResolver;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.LiveState;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import io.erasure.store.tck.ContractTable.FixtureRow;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** What is special about calling an owner's endpoint: where calls may go, retries, secrets, verify mode, payloads. */
class HttpCallbackIT {

    private static final AtomicInteger TABLES = new AtomicInteger();
    private static final CutoffTimestamp CUTOFF = CutoffTimestamp.fromInstant(Instant.parse("2026-01-01T00:00:00Z"));

    private static FakeOwnerService owner;
    private static StoreAdapter adapter;

    private String table;
    private DatasetSpec spec;

    @BeforeAll
    static void open() {
        owner = FakeOwnerService.start();
        adapter = CallbackFixtures.open(CallbackFixtures.loopbackSettings());
    }

    @AfterAll
    static void close() {
        adapter.close();
        owner.close();
    }

    @BeforeEach
    void freshTable() {
        table = "t" + TABLES.incrementAndGet();
        owner.createTable(table);
        LongStream.rangeClosed(1, 3).forEach(id -> owner.put(table, new FixtureRow(id, "row-" + id, 1, 1, null)));
        spec = CallbackFixtures.spec(table, owner.url(table, "delete"), owner.url(table, "check"));
        adapter.checkDataset(spec);
    }

    // --- where calls may go ---

    @Test
    void aHostNotOnTheAllowListIsRefusedWithTheFix() {
        DatasetSpec elsewhere = CallbackFixtures.spec(table, "https://elsewhere.example.org/erasure/delete", null);

        assertThatThrownBy(() -> adapter.checkDataset(elsewhere))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("https://elsewhere.example.org/erasure/delete")
                .hasMessageContaining("erasure.connections.owner-callbacks.settings.allowed-hosts");
    }

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "127.0.0.1", "169.254.169.254", "10.1.2.3", "192.168.0.10", "[::1]"})
    void aHostResolvingToANonPublicAddressIsRefusedAndNeverCalled(String host) {
        StoreAdapter strict = CallbackFixtures.open(Map.of(
                "allowed-hosts",
                "localhost,127.0.0.1,169.254.169.254,10.1.2.3,192.168.0.10,[::1]",
                "secret.owner-token",
                FakeOwnerService.TOKEN,
                "secret-teams.owner-token",
                "owners"));
        DatasetSpec internal =
                CallbackFixtures.spec(table, "http://" + host + ":" + owner.port() + "/" + table + "/delete", null);

        assertThatThrownBy(() -> strict.checkDataset(internal))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("resolves to")
                .hasMessageContaining("allow-private-addresses");
        // also at call time, whatever was accepted before
        DeletePlan plan = strict.planDelete(batch(internal, "batch-private", ids(1)));
        assertThatThrownBy(() -> strict.executeDelete(plan)).isInstanceOf(StoreException.Fatal.class);
        assertThat(owner.received(table)).isEmpty();
        assertThat(owner.get(table, 1)).isPresent();
    }

    @Test
    void aHostRebindingToAPrivateAddressAfterRegistrationIsRefusedAtCallTime() throws Exception {
        AtomicReference<InetAddress> answer = new AtomicReference<>(InetAddress.getByName("93.184.216.34"));
        HostResolver dns = host -> List.of(answer.get());
        Map<String, String> settings = Map.of(
                "allowed-hosts",
                "owner.example.com",
                "secret.owner-token",
                FakeOwnerService.TOKEN,
                "secret-teams.owner-token",
                "owners",
                "max-attempts",
                "1");
        StoreAdapter rebound = HttpCallbackAdapterProvider.open(
                HttpCallbackSettings.from(new StoreConnection("rebinding", StoreKind.HTTP_CALLBACK, settings)),
                dns,
                Clock.systemUTC());
        DatasetSpec target = CallbackFixtures.spec(
                table, "http://owner.example.com:" + owner.port() + "/" + table + "/delete", null);
        rebound.checkDataset(target);

        answer.set(InetAddress.getByName("127.0.0.1"));

        DeletePlan plan = rebound.planDelete(batch(target, "batch-rebind", ids(1)));
        assertThatThrownBy(() -> rebound.executeDelete(plan))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("resolves to 127.0.0.1, in 127.0.0.0/8 (loopback)");
        assertThat(owner.get(table, 1)).isPresent();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "100.64.0.1",
                "198.18.0.1",
                "198.19.255.255",
                "240.0.0.1",
                "255.255.255.255",
                "192.0.0.8",
                "192.0.2.1",
                "198.51.100.1",
                "203.0.113.1",
                "64:ff9b::a00:1",
                "64:ff9b::808:808",
                "64:ff9b:1::a00:1",
                "2002:a00:1::1",
                "2001::1",
                "::8.8.8.8"
            })
    void aHostResolvingToAnyOtherNonPublicRangeIsRefusedAtRegistrationAndAtCallTime(String address) throws Exception {
        InetAddress resolved = InetAddress.getByName(address);
        StoreAdapter strict = HttpCallbackAdapterProvider.open(
                HttpCallbackSettings.from(new StoreConnection(
                        "strict",
                        StoreKind.HTTP_CALLBACK,
                        Map.of(
                                "allowed-hosts",
                                "owner.test",
                                "secret.owner-token",
                                FakeOwnerService.TOKEN,
                                "secret-teams.owner-token",
                                "owners",
                                "max-attempts",
                                "1"))),
                host -> List.of(resolved),
                Clock.systemUTC());
        DatasetSpec target =
                CallbackFixtures.spec(table, "http://owner.test:" + owner.port() + "/" + table + "/delete", null);

        assertThatThrownBy(() -> strict.checkDataset(target))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("host 'owner.test' resolves to " + resolved.getHostAddress())
                .hasMessageContaining("erasure.connections.strict.settings.allowed-addresses");
        DeletePlan plan = strict.planDelete(batch(target, "batch-range", ids(1)));
        assertThatThrownBy(() -> strict.executeDelete(plan))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("copy.httpCallback.url http://owner.test:" + owner.port())
                .hasMessageContaining("resolves to " + resolved.getHostAddress());
        strict.close();
    }

    // --- one lookup per connection: the address checked is the address connected to ---

    @Test
    void aCallConnectsOnlyToTheAddressItsOneLookupCheckedNotToALaterAnswer() throws Exception {
        FakeOwnerService[] servers = onTwoLoopbackAddresses();
        try (FakeOwnerService checked = servers[0];
                FakeOwnerService internal = servers[1]) {
            int port = checked.port();
            seed(checked, internal);
            AtomicInteger lookups = new AtomicInteger();
            // operators allow the owner's 127.0.0.2 only; the second answer points at another service, on 127.0.0.1
            HostResolver rebinding =
                    host -> List.of(InetAddress.getByName(lookups.incrementAndGet() == 1 ? "127.0.0.2" : "127.0.0.1"));
            StoreAdapter pinned = HttpCallbackAdapterProvider.open(
                    HttpCallbackSettings.from(new StoreConnection(
                            "pinned",
                            StoreKind.HTTP_CALLBACK,
                            Map.of(
                                    "allowed-hosts",
                                    "owner.test",
                                    "allowed-addresses",
                                    "127.0.0.2/32",
                                    "secret.owner-token",
                                    FakeOwnerService.TOKEN,
                                    "secret-teams.owner-token",
                                    "owners",
                                    "max-attempts",
                                    "1"))),
                    rebinding,
                    Clock.systemUTC());
            DatasetSpec target =
                    CallbackFixtures.spec(table, "http://owner.test:" + port + "/" + table + "/delete", null);

            DeleteOutcome outcome = pinned.executeDelete(pinned.planDelete(batch(target, "batch-pinned", ids(1))));

            assertThat(outcome.deleted()).isEqualTo(1);
            assertThat(lookups).hasValue(1);
            assertThat(checked.get(table, 1)).isEmpty();
            assertThat(checked.received(table))
                    .singleElement()
                    .satisfies(
                            request -> assertThat(request.headers().get("host")).isEqualTo("owner.test:" + port));
            assertThat(internal.received(table)).isEmpty();
            assertThat(internal.get(table, 1)).isPresent();
            pinned.close();
        }
    }

    @Test
    void withEveryAddressAllowedACallStillConnectsToWhatItsOwnLookupReturned() throws Exception {
        FakeOwnerService[] servers = onTwoLoopbackAddresses();
        try (FakeOwnerService resolved = servers[0];
                FakeOwnerService elsewhere = servers[1]) {
            int port = resolved.port();
            seed(resolved, elsewhere);
            AtomicInteger lookups = new AtomicInteger();
            // the platform's resolver says 127.0.0.2; the system's own lookup of localhost would say 127.0.0.1
            HostResolver dns = host -> {
                lookups.incrementAndGet();
                return List.of(InetAddress.getByName("127.0.0.2"));
            };
            StoreAdapter open = HttpCallbackAdapterProvider.open(
                    HttpCallbackSettings.from(new StoreConnection(
                            "open",
                            StoreKind.HTTP_CALLBACK,
                            Map.of(
                                    "allowed-hosts",
                                    "localhost",
                                    "allow-private-addresses",
                                    "true",
                                    "secret.owner-token",
                                    FakeOwnerService.TOKEN,
                                    "secret-teams.owner-token",
                                    "owners",
                                    "max-attempts",
                                    "1"))),
                    dns,
                    Clock.systemUTC());
            DatasetSpec target =
                    CallbackFixtures.spec(table, "http://localhost:" + port + "/" + table + "/delete", null);

            DeleteOutcome outcome = open.executeDelete(open.planDelete(batch(target, "batch-resolved", ids(1))));

            assertThat(elsewhere.received(table)).isEmpty();
            assertThat(resolved.get(table, 1)).isEmpty();
            assertThat(outcome.deleted()).isEqualTo(1);
            assertThat(lookups).hasValue(1);
            open.close();
        }
    }

    @Test
    void aRedirectIsReportedNotFollowed() {
        owner.scriptNext(table, 302, "", Map.of("Location", "http://169.254.169.254/latest/meta-data/"), Duration.ZERO);

        assertThatThrownBy(() -> delete("batch-redirect", ids(1)))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("302")
                .hasMessageContaining("register the final URL");
        assertThat(owner.received(table)).hasSize(1);
    }

    // --- retries ---

    @Test
    void twoUnavailableAnswersAreRetriedWithTheSameIdempotencyKey() {
        owner.scriptNext(table, 503, "down for maintenance");
        owner.scriptNext(table, 503, "still down");

        DeleteOutcome outcome = delete("batch-retried", ids(1, 2));

        assertThat(outcome.deleted()).isEqualTo(2);
        assertThat(owner.received(table))
                .hasSize(3)
                .extracting(r -> r.headers().get("idempotency-key"))
                .containsOnly("batch-retried");
        assertThat(owner.get(table, 1)).isEmpty();
        assertThat(owner.get(table, 2)).isEmpty();
        assertThat(owner.get(table, 3)).isPresent();
    }

    @Test
    void tooManyRequestsIsRetriedAfterItsRetryAfter() {
        owner.scriptNext(table, 429, "slow down", Map.of("Retry-After", "1"), Duration.ZERO);

        DeleteOutcome outcome = delete("batch-429", ids(1));

        assertThat(outcome.deleted()).isEqualTo(1);
        assertThat(owner.received(table)).hasSize(2);
    }

    @Test
    void aRetryAfterLongerThanACallWaitsIsLeftToTheCaller() {
        owner.scriptNext(table, 429, "come back in an hour", Map.of("Retry-After", "3600"), Duration.ZERO);

        assertThatThrownBy(() -> delete("batch-429-long", ids(1)))
                .isInstanceOf(StoreException.Retriable.class)
                .hasMessageContaining("retry after 3600 s");
        assertThat(owner.received(table)).hasSize(1);
        assertThat(owner.get(table, 1)).isPresent();
    }

    @Test
    void aBadRequestFailsFatalWithoutRetryAndShowsTheStartOfTheBody() {
        String body = "{\"error\": \"unknown field\"}" + "x".repeat(300);
        owner.scriptNext(table, 400, body);

        assertThatThrownBy(() -> delete("batch-400", ids(1)))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("400")
                .hasMessageContaining(body.substring(0, 200))
                .hasMessageNotContaining(body.substring(0, 201));
        assertThat(owner.received(table)).hasSize(1);
        assertThat(owner.get(table, 1)).isPresent();
    }

    @Test
    void aSlowEndpointIsRetriableAfterMaxAttempts() throws InterruptedException {
        Map<String, String> settings = new HashMap<>(CallbackFixtures.loopbackSettings());
        settings.put("timeout-ms", "300");
        settings.put("max-attempts", "2");
        StoreAdapter impatient = CallbackFixtures.open(settings);
        owner.scriptNext(table, 200, "{}", Map.of(), Duration.ofSeconds(5));
        owner.scriptNext(table, 200, "{}", Map.of(), Duration.ofSeconds(5));

        DeletePlan plan = impatient.planDelete(batch(spec, "batch-slow", ids(1)));
        assertThatThrownBy(() -> impatient.executeDelete(plan))
                .isInstanceOf(StoreException.Retriable.class)
                .hasMessageContaining("did not answer within 300 ms")
                .hasMessageContaining("2 attempt(s)");
        assertThat(owner.receivedAtLeast(table, 2))
                .hasSize(2)
                .extracting(r -> r.headers().get("idempotency-key"))
                .containsOnly("batch-slow");
    }

    // --- secrets ---

    @Test
    void theSecretValueNeverAppearsInPlansOrMessages() {
        DeletePlan plan = adapter.planDelete(batch(spec, "batch-secret", ids(1)));
        assertThat(plan.statements().get(0).describe())
                .contains("secret:owner-token")
                .doesNotContain(FakeOwnerService.TOKEN);

        owner.scriptNext(table, 403, "forbidden: you sent Authorization: " + FakeOwnerService.TOKEN);
        assertThatThrownBy(() -> adapter.executeDelete(plan))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("403")
                .hasMessageContaining("secret:owner-token")
                .hasMessageNotContaining(FakeOwnerService.TOKEN);

        owner.scriptNext(table, 200, "thanks for " + FakeOwnerService.TOKEN);
        assertThatThrownBy(() -> adapter.executeDelete(plan))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageNotContaining(FakeOwnerService.TOKEN);

        assertThat(owner.received(table))
                .extracting(r -> r.headers().get("authorization"))
                .containsOnly(FakeOwnerService.TOKEN);
    }

    @Test
    void aWrongSecretIsRefusedByTheOwnerWithoutShowingIt() {
        Map<String, String> settings = new HashMap<>(CallbackFixtures.loopbackSettings());
        settings.put("secret.owner-token", "Bearer stale-token-0000");
        settings.put("secret-teams.owner-token", "owners");
        StoreAdapter stale = CallbackFixtures.open(settings);

        assertThatThrownBy(() -> stale.executeDelete(stale.planDelete(batch(spec, "batch-stale", ids(1)))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("401")
                .hasMessageNotContaining("stale-token-0000");
        assertThat(owner.get(table, 1)).isPresent();
    }

    @Test
    void anotherTeamsSpecCannotSendTheOwnersTokenAnywhere() {
        // team "intruders" points a spec at its own endpoint (here: the same fake owner) with the owners' token
        DatasetSpec borrowed = spec.toBuilder().ownerTeam("intruders").build();

        assertThatThrownBy(() -> adapter.checkDataset(borrowed))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("team 'intruders' may not use")
                .hasMessageContaining("secret-teams.owner-token")
                .hasMessageNotContaining(FakeOwnerService.TOKEN);
        assertThatThrownBy(() -> adapter.executeDelete(adapter.planDelete(batch(borrowed, "batch-borrowed", ids(1)))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("team 'intruders' may not use");
        assertThat(owner.received(table))
                .as("nothing was sent, so the token went nowhere")
                .isEmpty();
        assertThat(owner.get(table, 1)).isPresent();
    }

    @Test
    void anUnknownSecretIsRefusedNamingItAndTheSettingToAdd() {
        DatasetSpec unknown = CallbackFixtures.spec(
                table,
                new CopyTarget.HttpCallback(
                        owner.url(table, "delete"),
                        "POST",
                        Map.of("X-Api-Key", "secret:billing-key"),
                        CallbackFixtures.PAYLOAD,
                        List.of("id"),
                        null));

        assertThatThrownBy(() -> adapter.checkDataset(unknown))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'billing-key'")
                .hasMessageContaining("erasure.connections.owner-callbacks.settings.secret.billing-key");
    }

    // --- the owner's answers ---

    @Test
    void theOwnersCountsAreTheOutcome() {
        owner.scriptNext(table, 200, "{\"deleted\": 1, \"absent\": 1, \"skippedNewer\": 1}");

        DeleteOutcome outcome = delete("batch-counts", ids(1, 2, 3));

        assertThat(outcome).isEqualTo(new DeleteOutcome(1, 1, 1, 0, 1));
    }

    @Test
    void anAnswerThatIsNotTheExpectedJsonFailsSayingWhatIsExpected() {
        owner.scriptNext(table, 200, "ok, done");

        assertThatThrownBy(() -> delete("batch-ok", ids(1)))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("ok, done")
                .hasMessageContaining("{\"deleted\": n, \"absent\": m, \"skippedNewer\": k}");
    }

    @Test
    void anAnswerWithoutCountsMeansEveryKeyWasDeleted() {
        owner.scriptNext(table, 204, "");

        assertThat(delete("batch-204", ids(1, 2)).deleted()).isEqualTo(2);
    }

    // --- verify mode, reads ---

    @Test
    void verifyModeAsksTheCheckUrlForPresence() {
        delete("batch-verify", ids(2));

        List<LiveState> states = adapter.checkLiveState(spec, ids(1, 2, 3, 4));

        assertThat(states).extracting(LiveState::present).containsExactly(true, false, true, false);
        assertThat(states).extracting(LiveState::lastWriteMicros).containsOnlyNulls();
        Received question = owner.received(table).get(1);
        assertThat(question.action()).isEqualTo("check");
        assertThat(json(question.body()).get("keys").get(0).get("id").longValue())
                .isEqualTo(1);
    }

    @Test
    void withoutACheckUrlVerifyModeFailsRatherThanAssumeTheDataGone() {
        DatasetSpec unchecked = CallbackFixtures.spec(table, owner.url(table, "delete"), null);
        adapter.checkDataset(unchecked);

        assertThatThrownBy(() -> adapter.checkLiveState(unchecked, ids(1)))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("no checkUrl registered; verify mode needs one");
        assertThat(owner.received(table)).isEmpty();
    }

    @Test
    void readRowsRecordsTheRequestAskedForEachKey() {
        List<LiveRow> rows = adapter.readRows(spec, ids(1, 7));

        assertThat(rows).hasSize(2);
        assertThat(rows.get(1).key()).isEqualTo(Map.of("id", 7L));
        assertThat(rows.get(1).lastWriteMicros()).isNull();
        assertThat(rows.get(1).columns()).singleElement().satisfies(column -> {
            assertThat(column.name()).isEqualTo("request");
            assertThat((String) column.value())
                    .contains("\"keys\": [{\"id\":7}]")
                    .contains("\"dataset\": \"" + spec.name() + "\"");
        });
        assertThat(owner.received(table)).isEmpty();
    }

    @Test
    void stringKeysWithQuotesAreEscapedInTheKeysArray() {
        String awkward = "he said \"hi\" \\ {dataset}\nbye";
        String strings = "s" + TABLES.incrementAndGet();
        DatasetSpec named = CallbackFixtures.spec(
                strings,
                new CopyTarget.HttpCallback(
                        owner.url(strings, "delete"),
                        "POST",
                        Map.of("Authorization", "secret:owner-token"),
                        CallbackFixtures.PAYLOAD,
                        List.of("name"),
                        null));
        adapter.checkDataset(named);
        owner.scriptNext(strings, 200, "{\"deleted\": 1}");

        DeleteOutcome outcome = adapter.executeDelete(
                adapter.planDelete(new DeleteBatch(named, "batch-strings", CUTOFF, List.of(Map.of("name", awkward)))));

        assertThat(outcome.deleted()).isEqualTo(1);
        JsonNode sent = json(owner.received(strings).get(0).body());
        assertThat(sent.get("keys").get(0).get("name").stringValue()).isEqualTo(awkward);
        assertThat(sent.get("dataset").stringValue()).isEqualTo(named.name());
        assertThat(sent.get("cutoffMicros").longValue()).isEqualTo(CUTOFF.micros());
    }

    @Test
    void restoringIsLeftToTheOwner() {
        assertThat(adapter.capabilities().restore()).isFalse();
        assertThat(adapter.capabilities().cutoffConditioned()).isFalse();
        assertThatThrownBy(() -> adapter.restore(spec, List.of()))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("owner's system must restore");
    }

    /** An owner on 127.0.0.2 and another service on 127.0.0.1, on the same port; servers[0] is the owner. */
    private static FakeOwnerService[] onTwoLoopbackAddresses() throws IOException {
        for (int tries = 0; tries < 10; tries++) {
            FakeOwnerService first = FakeOwnerService.start("127.0.0.2", 0);
            try {
                return new FakeOwnerService[] {first, FakeOwnerService.start("127.0.0.1", first.port())};
            } catch (BindException taken) {
                first.close();
            }
        }
        throw new IllegalStateException("no port free on both 127.0.0.1 and 127.0.0.2 after 10 tries");
    }

    private void seed(FakeOwnerService... services) {
        for (FakeOwnerService service : services) {
            service.createTable(table);
            service.put(table, new FixtureRow(1, "row-1", 1, 1, null));
        }
    }

    private DeleteOutcome delete(String batchId, List<Map<String, Object>> keys) {
        return adapter.executeDelete(adapter.planDelete(batch(spec, batchId, keys)));
    }

    private static DeleteBatch batch(DatasetSpec spec, String batchId, List<Map<String, Object>> keys) {
        return new DeleteBatch(spec, batchId, CUTOFF, keys);
    }

    private static List<Map<String, Object>> ids(long... ids) {
        return LongStream.of(ids)
                .<Map<String, Object>>mapToObj(id -> Map.of("id", id))
                .toList();
    }

    private static JsonNode json(String body) {
        return JsonMapper.builder().build().readTree(body);
    }
}
