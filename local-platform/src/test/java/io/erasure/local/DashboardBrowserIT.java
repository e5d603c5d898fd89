package io.erasure.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.erasure.infra.PostgresEngine;
import io.erasure.local.demo.DemoCycle;
import io.erasure.local.demo.DemoData;
import io.erasure.local.demo.PlatformClient;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import java.io.File;
import java.net.URI;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The whole platform with its demo, and the ops dashboard driven in headless Chromium: the demo's
 * run shows as completed with its counts, an operator approves a held run and watches it complete, a
 * kill switch is flipped on and off, and a deleted key is found in the log and recovered.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardBrowserIT {

    private static final Duration WAIT = Duration.ofMinutes(4);
    /** Departed (a multiple of 10), neither returning nor re-written after the backup: deleted by the demo. */
    private static final long DELETED_MEMBER = 200;

    private final JsonMapper json = JsonMapper.builder().build();
    private SharedPlatform shared;
    private LocalPlatform.Running platform;
    private DemoCycle demo;
    private DemoCycle.Result demoResult;
    private WebDriver browser;
    private PlatformClient operator;
    private PlatformClient owner;

    @BeforeAll
    void startPlatformAndBrowser() throws Exception {
        shared = SharedPlatform.get();
        platform = shared.platform;
        demo = shared.demo;
        demoResult = shared.demoResult;
        operator = new PlatformClient(json, URI.create("http://127.0.0.1:8080"), "operator", "operator");
        owner = operator.as("owner", "owner");

        ChromeOptions options = new ChromeOptions();
        options.setBinary("/usr/bin/chromium");
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--window-size=1400,1000",
                "--user-data-dir=" + Files.createTempDirectory("erasure-chromium"));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File("/usr/bin/chromedriver"))
                .build();
        browser = new ChromeDriver(service, options);
        browser.get(LocalPlatform.DASHBOARD);
    }

    @AfterAll
    void stop() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    @Order(1)
    void theDemoRunIsShownCompletedWithItsCounts() {
        signIn("operator");
        String runId = demoResult.runs().get(DemoCycle.PROFILES).path("id").asString();
        assertThat(demoResult.runs().get(DemoCycle.PROFILES).path("state").asString())
                .isEqualTo("COMPLETED");

        tab("runs");

        awaitText("run-state-" + runId, "COMPLETED");
        assertThat(text("run-deleted-" + runId))
                .isEqualTo(Long.toString(DemoData.expected().profiles()));
        assertThat(text("run-dataset-" + runId)).isEqualTo(DemoCycle.PROFILES);

        JsonNode search = demoResult
                .runs()
                .get(DemoCycle.PROFILES)
                .path("counts")
                .path("copies")
                .path("profile-search");
        assertThat(search.path("reported").path("deleted").asLong())
                .as("the profiles' search-index copy: one document per deleted profile")
                .isEqualTo(DemoData.expected().profiles());
        DemoData data = demo.data();
        assertThat(data.searchHas(DELETED_MEMBER))
                .as("a deleted member's document")
                .isFalse();
        assertThat(data.searchHas(DELETED_MEMBER + 1))
                .as("a member who never left")
                .isTrue();
        assertThat(data.searchHas(DemoData.DEPARTED_EVERY))
                .as("a member who came back after the backup")
                .isTrue();

        tab("datasets");
        new WebDriverWait(browser, WAIT)
                .withMessage("the profiles' search copy, with its deleted documents still in the index's segments")
                .until(d -> text("dataset-copies-" + DemoCycle.PROFILES)
                        .contains("profile-search (OPENSEARCH search-main): still on disk until"));
        assertThat(text("dataset-copies-" + DemoCycle.PROFILES)).contains("profile-cache (REDIS redis-main)");
    }

    @Test
    @Order(2)
    void anOperatorApprovesAHeldRunAndWatchesItComplete() throws Exception {
        String runId = heldFirstRunOfANewDataset();

        tab("approvals");
        awaitVisible("approval-row-" + runId);
        click("approve-button-" + runId);

        tab("runs");
        awaitText("run-state-" + runId, "COMPLETED");
        assertThat(text("run-deleted-" + runId))
                .isEqualTo(Long.toString(DemoData.expected().departed() - DemoData.RETURNING));
        JsonNode run = operator.get("/api/runs/" + runId).require("reading the approved run");
        assertThat(run.path("decidedBy").asString()).isEqualTo("operator");
    }

    @Test
    @Order(3)
    void theThrottleChartsKeepTheirHistoryAcrossAPageReload() {
        tab("throttle");
        new Select(byId("throttle-window")).selectByValue("15");
        By rateCharts = By.cssSelector("[data-testid^='throttle-chart-rate-']");
        // the demo's deletes made every store it deleted from publish a sample every 10 s since
        WebElement chart = new WebDriverWait(browser, WAIT)
                .withMessage("no store's rate chart with two samples")
                .until(d -> d.findElements(rateCharts).stream()
                        .filter(c -> Integer.parseInt(c.getDomAttribute("data-points")) >= 2)
                        .findFirst()
                        .orElse(null));
        String store = chart.getDomAttribute("data-testid").substring("throttle-chart-rate-".length());
        int pointsBefore = Integer.parseInt(chart.getDomAttribute("data-points"));
        Instant reloadedAt = Instant.now();

        browser.navigate().refresh();

        awaitVisible("panel-throttle");
        awaitVisible("throttle-store-" + store);
        new WebDriverWait(browser, WAIT)
                .withMessage("the 24 h chart of " + store + " after the reload")
                .until(d -> !byId("throttle-chart-rate-" + store)
                        .getDomAttribute("data-first")
                        .isEmpty());
        Instant first = Instant.parse(byId("throttle-chart-rate-" + store).getDomAttribute("data-first"));
        assertThat(first)
                .as("the first chart drawn after the reload starts before the reload: history outlives the page")
                .isBefore(reloadedAt);
        assertThat(byId("throttle-chart-rate-" + store).findElements(By.cssSelector("polyline, circle")))
                .as("a line (or a point) drawn from that history")
                .isNotEmpty();
        new Select(byId("throttle-window")).selectByValue("15");
        new WebDriverWait(browser, WAIT)
                .withMessage("the 15 min chart of " + store + " after the reload")
                .until(d ->
                        Integer.parseInt(byId("throttle-chart-rate-" + store).getDomAttribute("data-points"))
                                >= pointsBefore);
        assertThat(text("throttle-limit-" + store))
                .as("the store's current limit")
                .matches("\\d+");
    }

    @Test
    @Order(4)
    void aKillSwitchIsFlippedOnAndOff() {
        tab("kill-switches");
        awaitText("killswitch-state-global", "OFF");

        type("killswitch-reason-input-global", "incident drill (browser test)");
        click("killswitch-toggle-global");
        awaitText("killswitch-state-global", "ON");
        assertThat(globalSwitchOn()).isTrue();
        assertThat(text("killswitch-changed-by-global")).isEqualTo("operator");

        type("killswitch-reason-input-global", "drill over");
        click("killswitch-toggle-global");
        awaitText("killswitch-state-global", "OFF");
        assertThat(globalSwitchOn()).isFalse();
    }

    @Test
    @Order(5)
    void aDeletedKeyIsFoundInTheLogAndRecovered() throws Exception {
        assertThat(profileExists(DELETED_MEMBER)).as("deleted by the demo run").isFalse();
        signOut();
        signIn("recovery");
        tab("log");
        type("log-dataset", DemoCycle.PROFILES);
        type("log-key", "{\"member_id\":" + DELETED_MEMBER + "}");
        click("log-search");

        awaitText("log-status", "DELETED");
        assertThat(browser.findElements(By.cssSelector("[data-testid=log-record]")))
                .hasSize(1);
        WebElement dryRun = byId("recover-dry-run");
        if (dryRun.isSelected()) {
            dryRun.click();
        }
        type("recover-reason", "deleted by mistake (browser test)");
        click("recover-button");

        WebElement message = byId("recover-message");
        new WebDriverWait(browser, WAIT)
                .until(d -> message.getAttribute("data-recovery-id") != null
                        || "error".equals(message.getAttribute("data-status")));
        assertThat(message.getAttribute("data-status")).as(message.getText()).isEqualTo("ok");
        String recoveryId = message.getAttribute("data-recovery-id");
        tab("recoveries");
        awaitText("recovery-status-" + recoveryId, "COMPLETED");
        assertThat(text("recovery-restored-" + recoveryId)).isEqualTo("1");
        assertThat(profileExists(DELETED_MEMBER)).as("restored in Cassandra").isTrue();
    }

    /**
     * A newsletter-subscriptions dataset registered and backed up now: its first run has rows to delete, so it
     * waits for an operator who is neither its trigger nor its registrant (both are the owner).
     */
    private String heldFirstRunOfANewDataset() throws Exception {
        PostgresEngine postgres = platform.engine(PostgresEngine.class);
        try (Connection pg = DriverManager.getConnection(postgres.jdbcUrl(), PostgresEngine.USER, postgres.password());
                Statement sql = pg.createStatement()) {
            sql.execute("CREATE TABLE demo.newsletter (member_id bigint PRIMARY KEY, topic text NOT NULL,"
                    + " updated_at timestamptz NOT NULL)");
            sql.execute("INSERT INTO demo.newsletter SELECT member_id, 'weekly', now() - interval '30 days'"
                    + " FROM demo.members");
        }
        demo.backup("newsletter", "postgres", "newsletter");
        DatasetSpec newsletter = DatasetSpec.builder()
                .name("newsletter")
                .storeKind(StoreKind.POSTGRES)
                .connectionRef("pg-main")
                .namespace("demo")
                .table("newsletter")
                .keyColumns(KeyColumns.partitionOnly("member_id"))
                .identifierColumn("member_id")
                .identifierSource(DemoCycle.SOURCE)
                .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                .backup(S3Layout.defaultBackupLocation("newsletter", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.5))
                .ownerTeam(DemoCycle.TEAM)
                .build();
        owner.post("/api/datasets", newsletter).require("registering newsletter");
        String runId = owner.post("/api/datasets/newsletter/runs", null)
                .require("triggering")
                .path("id")
                .asString();
        await("run " + runId + " to be held for approval")
                .atMost(WAIT)
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    String state = operator.get("/api/runs/" + runId)
                            .require("reading run")
                            .path("state")
                            .asString();
                    // any other state fails at once: the run went past the hold, or ended
                    assertThat(state).isIn("PENDING", "AUDITING", "VALIDATING", "AWAITING_APPROVAL");
                    return state.equals("AWAITING_APPROVAL");
                });
        return runId;
    }

    private boolean globalSwitchOn() {
        JsonNode switches = operator.get("/api/kill-switches").require("reading kill switches");
        for (JsonNode entry : switches) {
            if ("global".equals(entry.path("scope").asString())) {
                return entry.path("active").asBoolean();
            }
        }
        return false;
    }

    private boolean profileExists(long memberId) {
        return shared.profileExists(memberId);
    }

    // --- the dashboard through its stable test ids (see the comment at the top of index.html) ---

    private void signIn(String user) {
        awaitVisible("login-form");
        type("login-username", user);
        type("login-password", user);
        click("login-submit");
        awaitText("current-user", user);
    }

    private void signOut() {
        click("logout-button");
        awaitVisible("login-form");
    }

    private void tab(String name) {
        click("tab-" + name);
        awaitVisible("panel-" + name);
    }

    private WebElement byId(String testId) {
        return browser.findElement(By.cssSelector("[data-testid='" + testId + "']"));
    }

    private String text(String testId) {
        return byId(testId).getText().trim();
    }

    private void type(String testId, String value) {
        WebElement field = byId(testId);
        field.clear();
        field.sendKeys(value);
    }

    private void click(String testId) {
        awaitVisible(testId);
        byId(testId).click();
    }

    private void awaitVisible(String testId) {
        new WebDriverWait(browser, WAIT).until(d -> {
            List<WebElement> found = d.findElements(By.cssSelector("[data-testid='" + testId + "']"));
            return !found.isEmpty() && found.get(0).isDisplayed();
        });
    }

    private void awaitText(String testId, String expected) {
        new WebDriverWait(browser, WAIT)
                .withMessage(() -> testId + " never showed '" + expected + "'")
                .until(d -> {
                    List<WebElement> found = d.findElements(By.cssSelector("[data-testid='" + testId + "']"));
                    return !found.isEmpty() && found.get(0).getText().trim().equals(expected);
                });
    }
}
