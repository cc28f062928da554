package io.ax.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.jayway.jsonpath.JsonPath;
import io.ax.core.AxContext;
import io.ax.core.AxJob;
import io.ax.core.AxScheduler;
import io.ax.core.InstanceState;
import io.ax.core.ScheduleRequest;
import io.ax.core.TaskInstance;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.WorkflowGraph;
import io.ax.core.store.InstanceStore;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

/**
 * The dashboard in a real browser: headless Chromium (Debian's {@code chromium} and {@code chromium-driver}) against
 * the sample application on a random port. An operator pauses a task, finds a DEAD instance by its state, reads its
 * payload and error (both hostile markup, shown as text and never run) and replays it until it succeeds, and cancels
 * a waiting instance from its page; the tasks page says each trigger in words, what ended last and the success rate;
 * a task's charts show its own day; a step's instance links to its workflow run; a viewer sees the same pages without
 * a single write button. Both sign in through the sample's form login (its users, with passwords of this test). Each
 * page is saved as a screenshot under {@code target/dashboard/}.
 *
 * <p>Without Chromium the test is skipped with the reason, unless {@code AX_TEST_SERVICES=required} (CI), where it
 * fails. The driver is the local one: nothing is downloaded at test time.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "sample.retry.base=100ms",
            "sample.users.viewer-password=" + DashboardBrowserTest.VIEWER_PASSWORD,
            "sample.users.operator-password=" + DashboardBrowserTest.OPERATOR_PASSWORD,
            "spring.datasource.url=jdbc:h2:mem:dashboard-browser-test;DB_CLOSE_DELAY=-1"
        })
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardBrowserTest {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final Path SCREENSHOTS = Path.of("target", "dashboard");

    /** A payload, and so an error message, that would run script if the dashboard wrote it as HTML. */
    static final String HOSTILE =
            "<script>window.axPwned='script'</script>" + "<img src=x onerror=\"window.axPwned='img'\"><b>bold?</b>";

    static final String VIEWER_PASSWORD = "viewer-secret";
    static final String OPERATOR_PASSWORD = "operator-secret";
    private static final java.util.function.Function<String, String> PASSWORD_OF =
            user -> user.equals("operator") ? OPERATOR_PASSWORD : VIEWER_PASSWORD;

    private static final Duration BOUND = Duration.ofSeconds(20);

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(BOUND).build();

    private static WebDriver browser;

    @LocalServerPort
    int port;

    @Autowired
    AxScheduler scheduler;

    @Autowired
    AxEngine engine;

    @Autowired
    InstanceStore store;

    @Autowired
    Echo echo;

    @Autowired
    Report report;

    @BeforeAll
    static void startBrowser() throws IOException {
        boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        String missing = "Chromium is not installed (" + CHROMIUM + ", " + CHROMEDRIVER
                + "): apt-get install -y chromium chromium-driver";
        if ("required".equals(System.getenv("AX_TEST_SERVICES"))) {
            assertThat(present).as(missing).isTrue();
        }
        Assumptions.assumeTrue(present, missing);

        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless=new",
                "--no-sandbox", // root in a container has no user namespace for the sandbox
                "--disable-dev-shm-usage",
                "--disable-gpu",
                "--window-size=1360,900",
                "--lang=en-US");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER.toString()))
                .usingAnyFreePort()
                .build();
        browser = new ChromeDriver(service, options);
        browser.manage().timeouts().pageLoadTimeout(BOUND).scriptTimeout(BOUND);
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    @Order(1)
    void theDashboardAsksWhoYouAreFirst() {
        browser.get(url("/login"));
        browser.manage().deleteAllCookies();

        browser.get(url("/ax/"));

        new WebDriverWait(browser, BOUND).until(d -> d.getCurrentUrl().endsWith("/login"));
        screenshot("login");
    }

    @Test
    @Order(2)
    void theOverviewShowsTheNodeTheStoreAndTheLastHour() {
        signIn("operator");
        open("#/overview");

        WebElement store = waitFor(By.cssSelector("[data-card=store] .value"));
        assertThat(store.getText()).startsWith("jdbc");
        assertThat(text(By.cssSelector("[data-card=role] .value"))).isEqualTo("leader");
        assertThat(text(By.cssSelector("[data-card=lag] .value")))
                .as("this node's lag and the cluster's, in a unit")
                .matches("\\d+(\\.\\d)? (ms|s|min) / \\d+(\\.\\d)? (ms|s|min)");
        assertThat(browser.findElements(By.cssSelector("[data-chart=fires] svg rect")))
                .hasSize(60);
        assertThat(text(By.id("who"))).contains("operator");
        screenshot("overview");
    }

    @Test
    @Order(3)
    void anOperatorPausesATaskAndSeesItPausedThenResumesIt() {
        signIn("operator");
        open("#/tasks");
        waitFor(By.cssSelector("tr[data-task=heartbeat]"));
        assertThat(taskNames()).contains("heartbeat", "tick", "flaky", "doomed", "slow", "closeUnpaidOrder", "echo");

        click(By.cssSelector("tr[data-task=heartbeat] button[data-action=pause]"));
        waitFor(By.cssSelector("tr[data-task=heartbeat] [data-paused=true]"));
        assertThat(engine.isPaused("heartbeat")).isTrue();
        assertThat(store.findTask("heartbeat").orElseThrow().paused()).isTrue();

        click(By.cssSelector("tr[data-task=heartbeat] button[data-action=resume]"));
        waitFor(By.cssSelector("tr[data-task=heartbeat] [data-paused=false]"));
        assertThat(engine.isPaused("heartbeat")).isFalse();
    }

    @Test
    @Order(4)
    void anOperatorFindsADeadInstanceByStateReadsItsHostileTextAsTextAndReplaysItToSuccess() {
        String id = deadHostileInstance();
        signIn("operator");

        open("#/dead-letters");
        WebElement letter = waitFor(By.cssSelector("tr[data-dead-letter='" + id + "'] td.error"));
        assertThat(letter.getText()).contains("<script>window.axPwned='script'</script>");
        assertNothingRan();
        screenshot("dead-letters");

        open("#/instances");
        new Select(waitFor(By.cssSelector("#search select[name=state]"))).selectByValue("DEAD");
        browser.findElement(By.cssSelector("#search input[name=task]")).sendKeys("echo");
        click(By.cssSelector("#search button[data-action=search]"));
        waitFor(By.cssSelector("tr[data-instance-row='" + id + "']"));
        assertThat(browser.findElements(By.cssSelector("tr[data-instance-row]")))
                .allSatisfy(row -> assertThat(row.getDomAttribute("data-state")).isEqualTo("DEAD"));
        screenshot("instances");

        click(By.cssSelector("tr[data-instance-row='" + id + "'] a[data-instance]"));
        assertThat(waitFor(By.id("payload")).getText()).isEqualTo(HOSTILE);
        assertThat(text(By.id("timeline"))).contains("rejected " + HOSTILE);
        assertThat(waitFor(By.cssSelector("tr[data-attempt='1'][data-outcome=FAILED] td.error"))
                        .getText())
                .contains("rejected " + HOSTILE);
        assertThat(text(By.id("stack-trace")))
                .as("the operator reads the last failure's stack trace, as text")
                .contains("IllegalStateException: rejected " + HOSTILE)
                .contains("DashboardBrowserTest$Echo.echo");
        assertNothingRan();
        screenshot("instance");

        echo.fixed.set(true);
        click(By.cssSelector("[data-instance-detail] button[data-action=replay]"));
        waitFor(By.cssSelector("#instance-state [data-state=SUCCESS]"));
        assertThat(store.find(id).orElseThrow().state()).isEqualTo(InstanceState.SUCCESS);
        assertThat(text(By.id("timeline")))
                .as("the signed-in operator is audited")
                .contains("by operator 'operator'");
        assertThat(browser.findElements(By.cssSelector("#timeline li[data-to]")))
                .last()
                .satisfies(li -> assertThat(li.getDomAttribute("data-to")).isEqualTo("SUCCESS"));
    }

    @Test
    @Order(5)
    void theNodesPageListsThisNodeAsLeaderOwningEveryPartition() {
        signIn("operator");
        open("#/nodes");

        WebElement row = waitFor(By.cssSelector("tr[data-node='" + engine.nodeId() + "']"));
        assertThat(row.getText()).contains("leader", "(this node)");
        assertThat(row.findElement(By.cssSelector("td[data-partitions]")).getText())
                .as("a node alone owns every partition")
                .isEqualTo("256");
        assertThat(text(By.cssSelector("[data-card=partitions] .value"))).startsWith("256 of 256");
        assertThat(text(By.cssSelector("[data-owned-ranges]"))).isEqualTo("This node owns 0-255");
        screenshot("nodes");
    }

    @Test
    @Order(6)
    void theWorkflowsPageDrawsTheSampleWorkflowColouredByItsNewestRun() {
        String run = scheduler.triggerNow("export");
        awaitRun("export", run, "succeeded");
        signIn("viewer");

        open("#/workflows");
        waitFor(By.cssSelector("[data-workflow=export] tr[data-run='" + run + "']"));

        assertDrawnAsTheGraph("export", run);
        assertThat(stepStates("export")).containsOnly("SUCCESS");
        assertThat(text(By.cssSelector("[data-workflow=export] tr[data-run='" + run + "']")))
                .contains("succeeded");
        assertThat(attributes(
                        By.cssSelector("[data-workflow=export] tr[data-run='" + run + "'] [data-step] [data-state]"),
                        "data-state"))
                .containsExactly("SUCCESS", "SUCCESS", "SUCCESS");
        assertThat(attributes(By.cssSelector("[data-workflow=export] tr[data-run]"), "data-state"))
                .as("tonight's export, stored ahead, is listed as waiting")
                .contains("waiting");
    }

    @Test
    @Order(7)
    void aFanOutAndFanInAreDrawnInColumnsByDepthAndABlockedRunShowsWhereItStopped() {
        String run = scheduler.triggerNow("diamond-start");
        awaitRun("diamond-start", run, "blocked");
        signIn("viewer");

        open("#/workflows");
        waitFor(By.cssSelector("[data-workflow=diamond-start] tr[data-run='" + run + "']"));

        assertDrawnAsTheGraph("diamond-start", run);
        assertThat(stepStates("diamond-start"))
                .as("in the order of the graph's nodes")
                .containsExactly("SUCCESS", "SUCCESS", "DEAD", "SKIPPED");
        assertThat(box("diamond-start", "diamond-left", "x"))
                .as("the two branches share a column")
                .isEqualTo(box("diamond-start", "diamond-right", "x"));
        assertThat(box("diamond-start", "diamond-left", "y"))
                .as("one above the other")
                .isNotEqualTo(box("diamond-start", "diamond-right", "y"));
        assertThat(box("diamond-start", "diamond-join", "x")).isGreaterThan(box("diamond-start", "diamond-left", "x"));
        assertThat(text(By.cssSelector("[data-workflow=diamond-start] tr[data-run='" + run + "']")))
                .contains("blocked");
        screenshot("workflows");
    }

    @Test
    @Order(8)
    void aViewerSeesThePagesWithoutAWriteButton() {
        String id = deadHostileInstance();
        signIn("viewer");

        open("#/tasks");
        waitFor(By.cssSelector("tr[data-task=heartbeat]"));
        assertThat(text(By.id("who"))).contains("viewer", "read-only");
        assertNoWriteButtons();

        open("#/dead-letters");
        waitFor(By.cssSelector("tr[data-dead-letter='" + id + "']"));
        assertNoWriteButtons();

        open("#/instance/" + id);
        waitFor(By.cssSelector("#instance-state [data-state=DEAD]"));
        assertNoWriteButtons();
        assertThat(text(By.id("stack-trace-hidden"))).contains("shown to the role OPERATOR");
        assertThat(browser.findElements(By.id("stack-trace"))).isEmpty();
        assertThat(text(By.id("dead-letter"))).contains("rejected " + HOSTILE);
        screenshot("instance-viewer");
    }

    @Test
    @Order(9)
    void anOperatorTriggersATaskWithParametersAndReplaysAllItsDeadLettersAfterConfirming() {
        deadHostileInstance();
        deadHostileInstance();
        signIn("operator");

        open("#/task/report");
        WebElement region = waitFor(By.cssSelector("#trigger-form input[data-param=region]"));
        assertThat(region.getDomProperty("value")).isEqualTo("eu");
        assertThat(waitFor(By.cssSelector("#trigger-form input[data-param=api-token]"))
                        .getDomProperty("value"))
                .as("a secret value is not shown")
                .isEmpty();
        region.clear();
        region.sendKeys("us");
        click(By.cssSelector("#trigger-form button[data-action=trigger-with-params]"));
        await().atMost(BOUND).until(() -> !report.runs.isEmpty());
        assertThat(report.runs)
                .last()
                .isEqualTo(java.util.Map.of("region", "us", "api-token", "s3cr3t"))
                .as("the secret kept its value, the region took the typed one");
        waitFor(By.cssSelector("[data-task-detail=report] tr[data-instance-row][data-state=SUCCESS]"));
        screenshot("task", 1100); // tall enough for the form, the facts and the charts

        echo.fixed.set(true);
        open("#/task/echo");
        click(By.cssSelector("#task-actions button[data-action=replay-all]"));
        String question = new WebDriverWait(browser, BOUND)
                .until(org.openqa.selenium.support.ui.ExpectedConditions.alertIsPresent())
                .getText();
        long dead = store.deadLetters(0, 1000).stream()
                .filter(d -> d.taskName().equals("echo"))
                .count();
        assertThat(question).isEqualTo("Replay " + dead + " dead letter(s) of echo?");
        browser.switchTo().alert().accept();
        String said = new WebDriverWait(browser, BOUND).until(d -> {
            String t = d.findElement(By.id("notice")).getText();
            return t.isEmpty() ? null : t;
        });
        assertThat(said).startsWith("Replayed " + dead + " dead letter(s) of echo");
        await().atMost(BOUND)
                .until(() -> store.deadLetters(0, 1000).stream()
                        .noneMatch(d -> d.taskName().equals("echo")));
    }

    @Test
    @Order(10)
    void onAPhoneOfFourHundredTwentyPixelsNoPageScrollsSideways() {
        deadHostileInstance();
        signIn("operator");
        browser.manage().window().setSize(new org.openqa.selenium.Dimension(420, 900));
        try {
            for (String page :
                    List.of("#/overview", "#/tasks", "#/task/heartbeat", "#/instances", "#/dead-letters", "#/nodes")) {
                open(page);
                waitFor(By.cssSelector("#content > *"));
                Long overflow = (Long) ((JavascriptExecutor) browser)
                        .executeScript("return document.documentElement.scrollWidth"
                                + " - document.documentElement.clientWidth;");
                assertThat(overflow).as(page + " scrolls sideways by").isLessThanOrEqualTo(0L);
            }
            open("#/tasks");
            waitFor(By.cssSelector("tr[data-task=heartbeat] td[data-label=Trigger]"));
            screenshot("tasks-420px");
        } finally {
            browser.manage().window().setSize(new org.openqa.selenium.Dimension(1360, 900));
        }
    }

    @Test
    @Order(11)
    void theChartsShowTheClusterOverAnHourOrADayAndATaskPageChartsItsOwn() {
        deadHostileInstance(); // a dead letter in this minute, at least
        signIn("operator");
        open("#/overview");
        waitFor(By.cssSelector("[data-chart=outcomes] svg"));
        assertThat(text(By.cssSelector("[data-scope-note]"))).isEqualTo("all nodes");
        new WebDriverWait(browser, BOUND)
                .ignoring(StaleElementReferenceException.class)
                .until(d -> !d.findElements(By.cssSelector("[data-chart=outcomes] rect[data-outcome=successes]"))
                                .isEmpty()
                        && !d.findElements(By.cssSelector("[data-chart=outcomes] rect[data-outcome=deadLetters]"))
                                .isEmpty());

        click(By.cssSelector(".window-switch a[data-window=day]"));
        new WebDriverWait(browser, BOUND)
                .ignoring(StaleElementReferenceException.class)
                .until(d -> d.findElements(By.cssSelector(".activity[data-window=day] [data-chart=fires] svg rect"))
                                .size()
                        == 144);
        assertThat(text(By.cssSelector("[data-card=lateness] .label"))).contains("day");
        screenshot("overview-day");

        open("#/task/echo");
        waitFor(By.cssSelector("[data-task-detail=echo] .activity[data-window=hour]"));
        new WebDriverWait(browser, BOUND)
                .ignoring(StaleElementReferenceException.class)
                .until(d -> !d.findElements(By.cssSelector("[data-chart=outcomes] rect[data-outcome=deadLetters]"))
                        .isEmpty());
        screenshot("task-activity");

        click(By.cssSelector("[data-task-detail=echo] .window-switch a[data-window=day]"));
        awaitDayCharts("[data-task-detail=echo]");
        assertThat(browser.getCurrentUrl()).endsWith("#/task/echo?window=day");
        assertThat(text(By.cssSelector("[data-task-detail=echo] [data-chart=fires]")))
                .contains("Fires per 10 minutes, last day");
        new WebDriverWait(browser, BOUND)
                .ignoring(StaleElementReferenceException.class)
                .until(d -> !d.findElements(By.cssSelector(
                                "[data-task-detail=echo] .activity[data-window=day] rect[data-outcome=deadLetters]"))
                        .isEmpty());

        open("#/task/heartbeat?window=day");
        awaitDayCharts("[data-task-detail=heartbeat]");
        new WebDriverWait(browser, BOUND)
                .ignoring(StaleElementReferenceException.class)
                .until(d -> !d.findElements(By.cssSelector(
                                "[data-task-detail=heartbeat] .activity[data-window=day] rect[data-outcome=successes]"))
                        .isEmpty());
        assertThat(browser.findElements(By.cssSelector("[data-chart=outcomes] rect[data-outcome=deadLetters]")))
                .as("the day of heartbeat, which never fails, has none of echo's dead letters")
                .isEmpty();
    }

    @Test
    @Order(12)
    void theTasksPageSaysEachTriggerInWordsWhatEndedLastAndTheSuccessRate() {
        echo.fixed.set(true);
        String succeeded = scheduler.triggerNow("echo");
        await().atMost(BOUND)
                .until(() -> store.find(succeeded)
                        .map(i -> i.state() == InstanceState.SUCCESS)
                        .orElse(false));
        String dead = deadHostileInstance(); // echo has succeeded and failed; what ended last died
        signIn("operator");
        open("#/tasks");

        WebElement heartbeat = waitFor(By.cssSelector("tr[data-task=heartbeat] td[data-label=Trigger]"));
        assertThat(heartbeat.getText()).isEqualTo("every 5 seconds, UTC");
        assertThat(heartbeat.getDomAttribute("title"))
                .as("the exact trigger, on hover")
                .isEqualTo("cron '0/5 * * * * ?' in UTC");
        assertThat(text(By.cssSelector("tr[data-task=tick] td[data-label=Trigger]")))
                .isEqualTo("every 3 seconds");
        assertThat(text(By.cssSelector("tr[data-task=doomed] td[data-label=Trigger]")))
                .isEqualTo("every 1 minute after the previous run ends, the first 2 seconds after start");

        // the last that ended, with its outcome and how long it ran, not the next fire that waits
        String echoTask = endpoint("/actuator/ax/tasks/echo");
        Number took = JsonPath.<List<Number>>read(echoTask, "$.lastInstances[?(@.id == '" + dead + "')].durationMillis")
                .get(0);
        new WebDriverWait(browser, BOUND)
                .ignoring(StaleElementReferenceException.class)
                .until(d -> !d.findElements(
                                By.cssSelector("tr[data-task=echo] td.last a[href='#/instance/" + dead + "']"))
                        .isEmpty());
        assertThat(attributes(By.cssSelector("tr[data-task=echo] td.last [data-state]"), "data-state"))
                .containsExactly("DEAD");
        assertThat(text(By.cssSelector("tr[data-task=echo] td.last"))).endsWith(" in " + millis(took.longValue()));
        assertThat(attributes(By.cssSelector("tr[data-task=heartbeat] td.last [data-state]"), "data-state"))
                .as("a cron task's next fire is SCHEDULED; what ended last succeeded")
                .containsExactly("SUCCESS");
        assertThat(attributes(By.cssSelector("tr[data-task=doomed] td.last [data-state]"), "data-state"))
                .as("a task that just died must not look fine")
                .containsExactly("DEAD");

        // the success rates are the cluster's over the last day, from the rollup each node writes every 10 s: what
        // ended a moment ago is counted after its node's next write
        By echoRate = By.cssSelector("tr[data-task=echo] td[data-rate]");
        assertThat(attributes(echoRate, "data-label"))
                .containsExactly("Success rate, OK / failed / dead (last 24 h, all nodes)");
        assertThat(attributes(echoRate, "data-outcomes")).containsExactly("cluster");
        awaitRate("heartbeat", "100 %");
        awaitRate("doomed", "0 %");
        await().atMost(BOUND)
                .alias("echo's success and its death, both written to the rollup")
                .until(() -> {
                    String echoNow = endpoint("/actuator/ax/tasks/echo");
                    return JsonPath.<Number>read(echoNow, "$.successes").longValue() > 0
                            && JsonPath.<Number>read(echoNow, "$.failures").longValue() > 0
                            && JsonPath.<Number>read(echoNow, "$.deadLetters").longValue() > 0;
                });
        // its rate and counts as the endpoint has them
        new WebDriverWait(browser, BOUND)
                .ignoring(StaleElementReferenceException.class)
                .until(d ->
                        d.findElement(echoRate).getText().equals(rateAndCounts(endpoint("/actuator/ax/tasks/echo"))));
        assertThat(text(echoRate))
                .as("some succeeded, some failed")
                .doesNotStartWith("0 %")
                .doesNotStartWith("100 %");
        screenshot("tasks");
    }

    @Test
    @Order(13)
    void aStepsInstancePageLinksToItsWorkflowRunWhichTheWorkflowsPageMarksAndColoursBy() {
        String older = scheduler.triggerNow("export");
        awaitRun("export", older, "succeeded");
        String newer = scheduler.triggerNow("export");
        awaitRun("export", newer, "succeeded");
        String upload = store.findByKey("upload", TaskInstance.runKey(older))
                .map(TaskInstance::id)
                .orElseThrow();
        assertThat(JsonPath.<String>read(endpoint("/actuator/ax/instances/" + upload), "$.runId"))
                .as("the endpoint names the step's run")
                .isEqualTo(older);
        signIn("viewer");

        open("#/instance/" + upload);
        assertThat(waitFor(By.cssSelector("#run a[data-run]")).getText()).isEqualTo(older);
        click(By.cssSelector("#run a[data-run]"));

        waitFor(By.cssSelector("[data-workflow=export] tr[data-run='" + older + "'][data-selected=true]"));
        assertThat(browser.getCurrentUrl()).endsWith("#/workflows?run=" + older);
        assertThat(attributes(By.cssSelector("tr[data-selected]"), "data-run"))
                .as("only the run of the step is marked, not the newer one")
                .containsExactly(older);
        assertThat(attributes(By.cssSelector("[data-workflow=export] [data-coloured-by]"), "data-coloured-by"))
                .as("the picture shows that run")
                .containsExactly(older);
        assertThat(stepStates("export")).containsOnly("SUCCESS");
        screenshot("workflow-run");

        open("#/workflows?run=" + upload);
        assertThat(waitFor(By.cssSelector("[data-run-not-listed]")).getText())
                .as("an id that is no run listed here is said to be so")
                .startsWith("Run " + upload + " is not among the newest runs listed here");
        assertThat(browser.findElements(By.cssSelector("tr[data-selected]"))).isEmpty();
    }

    @Test
    @Order(14)
    void anOperatorCancelsAScheduledInstanceFromItsPage() {
        String id = scheduler.schedule(
                ScheduleRequest.of("echo").after(Duration.ofHours(1)).payload("not needed after all"));
        await().atMost(BOUND)
                .until(() -> store.find(id)
                        .map(i -> i.state() == InstanceState.SCHEDULED)
                        .orElse(false));
        signIn("operator");

        open("#/instance/" + id);
        waitFor(By.cssSelector("#instance-state [data-state=SCHEDULED]"));
        click(By.cssSelector("[data-instance-detail] button[data-action=cancel]"));

        waitFor(By.cssSelector("#instance-state [data-state=CANCELLED]"));
        assertThat(text(By.id("notice"))).isEqualTo("Instance " + id + " cancelled");
        assertThat(browser.findElements(By.cssSelector("button[data-action=cancel]")))
                .as("a cancelled instance cannot be cancelled again")
                .isEmpty();
        assertThat(browser.findElements(By.cssSelector("#timeline li[data-to]")))
                .last()
                .satisfies(li -> assertThat(li.getDomAttribute("data-to")).isEqualTo("CANCELLED"))
                .satisfies(li -> assertThat(li.getText()).contains("cancelled by operator 'operator'"));
        assertThat(JsonPath.<String>read(endpoint("/actuator/ax/instances/" + id), "$.state"))
                .isEqualTo("CANCELLED");
        assertThat(store.find(id).orElseThrow().state()).isEqualTo(InstanceState.CANCELLED);
    }

    // ---- helpers ----------------------------------------------------------------------------------------------

    /** An instance of {@code echo} scheduled with the hostile payload, DEAD after its one attempt. */
    private String deadHostileInstance() {
        echo.fixed.set(false);
        String id = scheduler.schedule(
                ScheduleRequest.of("echo").after(Duration.ofMillis(1)).payload(HOSTILE));
        await().atMost(BOUND)
                .until(() ->
                        store.find(id).map(i -> i.state() == InstanceState.DEAD).orElse(false)
                                && store.deadLetters(0, 200).stream()
                                        .anyMatch(d -> d.instanceId().equals(id)));
        return id;
    }

    /** The 144 ten-minute bars of a day's fires in the page part {@code scope}. */
    private void awaitDayCharts(String scope) {
        new WebDriverWait(browser, BOUND)
                .ignoring(StaleElementReferenceException.class)
                .until(d -> d.findElements(By.cssSelector(
                                        scope + " .activity[data-window=day] [data-chart=fires] svg rect"))
                                .size()
                        == 144);
    }

    /** What a script reads from the {@code ax} endpoint as a viewer, over HTTP Basic. */
    private String endpoint(String path) {
        String viewer =
                Base64.getEncoder().encodeToString(("viewer:" + VIEWER_PASSWORD).getBytes(StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(URI.create(url(path)))
                .header("Authorization", "Basic " + viewer)
                .header("Accept", "application/json")
                .timeout(BOUND)
                .build();
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A task's success rate and counts as the tasks page writes them, from the endpoint's answer for the task. */
    /** Waits until the tasks page shows {@code task}'s success rate as {@code rate}. */
    private void awaitRate(String task, String rate) {
        By cell = By.cssSelector("tr[data-task=" + task + "] td[data-rate]");
        new WebDriverWait(browser, BOUND)
                .ignoring(StaleElementReferenceException.class)
                .until(d -> rate.equals(d.findElement(cell).getDomAttribute("data-rate")));
    }

    private static String rateAndCounts(String task) {
        long ok = JsonPath.<Number>read(task, "$.successes").longValue();
        long failed = JsonPath.<Number>read(task, "$.failures").longValue();
        long dead = JsonPath.<Number>read(task, "$.deadLetters").longValue();
        String rate = ok + failed == 0 ? "—" : (100 * ok / (ok + failed)) + " %";
        return rate + "\n" + ok + " / " + failed + " / " + dead;
    }

    /** A duration as the pages write it: milliseconds below a second, tenths of seconds below two minutes. */
    private static String millis(long ms) {
        return ms < 1_000
                ? ms + " ms"
                : ms < 120_000 ? String.format(Locale.ROOT, "%.1f s", ms / 1000.0) : Math.round(ms / 60_000.0) + " min";
    }

    /** Signs in through the sample's form login, as a person would; the dashboard is where it lands. */
    private void signIn(String user) {
        browser.get(url("/login"));
        browser.manage().deleteAllCookies(); // signed out: a new session
        browser.get(url("/login"));
        waitFor(By.id("username")).sendKeys(user);
        browser.findElement(By.id("password")).sendKeys(PASSWORD_OF.apply(user));
        click(By.cssSelector("button[type=submit]"));
        new WebDriverWait(browser, BOUND).until(d -> d.getCurrentUrl().endsWith("/ax/"));
    }

    private void open(String hash) {
        browser.get(url("/ax/" + hash));
        browser.navigate().refresh(); // a new hash alone would keep the page and its session
        waitFor(By.cssSelector("body[data-loaded=true]"));
    }

    private String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    private WebElement waitFor(By by) {
        return new WebDriverWait(browser, BOUND)
                .ignoring(StaleElementReferenceException.class)
                .until(d -> {
                    List<WebElement> found = d.findElements(by);
                    return found.isEmpty() || !found.get(0).isDisplayed() ? null : found.get(0);
                });
    }

    /** Clicks, trying again when a poll redrew the element between finding and clicking it. */
    private void click(By by) {
        new WebDriverWait(browser, BOUND)
                .ignoring(StaleElementReferenceException.class)
                .until(d -> {
                    WebElement element = d.findElement(by);
                    if (!element.isDisplayed() || !element.isEnabled()) {
                        return false;
                    }
                    element.click();
                    return true;
                });
    }

    private String text(By by) {
        return new WebDriverWait(browser, BOUND)
                .ignoring(StaleElementReferenceException.class)
                .until(d -> d.findElement(by).getText());
    }

    private List<String> taskNames() {
        return new WebDriverWait(browser, BOUND)
                .ignoring(StaleElementReferenceException.class)
                .until(d -> d.findElements(By.cssSelector("tr[data-task]")).stream()
                        .map(row -> row.getDomAttribute("data-task"))
                        .toList());
    }

    private void awaitRun(String root, String run, String state) {
        await().atMost(BOUND)
                .until(() -> engine.recentRuns(root, 10).stream()
                        .anyMatch(r -> r.runId().equals(run) && r.state().equals(state)));
    }

    /**
     * The workflow's picture has one box per step and one arrow per edge, no more, and each box stands in a column
     * right of every task it waits for; its colours are those of {@code run}.
     */
    private void assertDrawnAsTheGraph(String root, String run) {
        WorkflowGraph.Workflow workflow = engine.workflowGraph().workflowOf(root);
        String picture = "[data-workflow='" + root + "'] svg ";
        assertThat(attributes(By.cssSelector(picture + "[data-dag-node]"), "data-dag-node"))
                .as("one box per step, upstream first")
                .containsExactlyElementsOf(workflow.tasks());
        assertThat(attributes(By.cssSelector(picture + "[data-dag-edge]"), "data-dag-edge"))
                .as("one arrow per edge")
                .containsExactlyInAnyOrderElementsOf(workflow.edges().stream()
                        .map(e -> e.from() + " -> " + e.to())
                        .toList());
        assertThat(browser.findElements(By.cssSelector(picture + "[data-dag-edge] polygon")))
                .as("each edge has its arrow head")
                .hasSize(workflow.edges().size());
        for (WorkflowGraph.Edge edge : workflow.edges()) {
            assertThat(box(root, edge.from(), "x"))
                    .as("%s is drawn in a column left of %s, which waits for it", edge.from(), edge.to())
                    .isLessThan(box(root, edge.to(), "x"));
        }
        assertThat(attributes(By.cssSelector("[data-workflow='" + root + "'] [data-coloured-by]"), "data-coloured-by"))
                .as("coloured by the newest run that has started, not by a next fire that waits for its time")
                .containsExactly(run);
    }

    /** The state each box of the workflow's picture is coloured by, in the order of the graph's nodes. */
    private List<String> stepStates(String root) {
        return attributes(By.cssSelector("[data-workflow='" + root + "'] svg [data-dag-node]"), "data-state");
    }

    /** Where the workflow's picture draws a step's box: {@code x} from the left, {@code y} from the top. */
    private double box(String root, String task, String coordinate) {
        By box = By.cssSelector("[data-workflow='" + root + "'] svg [data-dag-node='" + task + "'] rect");
        return Double.parseDouble(attributes(box, coordinate).get(0));
    }

    private List<String> attributes(By by, String attribute) {
        return new WebDriverWait(browser, BOUND)
                .ignoring(StaleElementReferenceException.class)
                .until(d -> d.findElements(by).stream()
                        .map(element -> element.getDomAttribute(attribute))
                        .toList());
    }

    /** Neither the page's scripts nor its DOM got anything from the hostile text but text. */
    private void assertNothingRan() {
        JavascriptExecutor js = (JavascriptExecutor) browser;
        assertThat(js.executeScript("return window.axPwned === undefined"))
                .as("no injected script ran")
                .isEqualTo(true);
        assertThat(js.executeScript(
                        "return document.querySelectorAll('#content script, #content img," + " #content b').length"))
                .as("no element was made from the data")
                .isEqualTo(0L);
    }

    private void assertNoWriteButtons() {
        assertThat(browser.findElements(By.cssSelector("button[data-action]")).stream()
                        .map(b -> b.getDomAttribute("data-action"))
                        .filter(a -> !"search".equals(a))
                        .toList())
                .isEmpty();
    }

    /** A screenshot of a window {@code height} pixels tall, which is then given its usual size again. */
    private static void screenshot(String name, int height) {
        org.openqa.selenium.Dimension usual = browser.manage().window().getSize();
        browser.manage().window().setSize(new org.openqa.selenium.Dimension(usual.getWidth(), height));
        try {
            screenshot(name);
        } finally {
            browser.manage().window().setSize(usual);
        }
    }

    private static void screenshot(String name) {
        File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        try {
            Files.copy(shot.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A job whose error repeats its payload: it fails (at once DEAD, no retry) until told it is fixed. */
    static class Echo {
        final AtomicBoolean fixed = new AtomicBoolean();

        @AxJob(name = "echo", timeout = "5s")
        public void echo(AxContext context) {
            if (!fixed.get()) {
                throw new IllegalStateException("rejected " + context.payloadString());
            }
        }
    }

    /** A diamond workflow, started by hand: its right branch fails, so the join is blocked in every run. */
    static class Diamond {

        @AxJob(name = "diamond-start", timeout = "5s")
        public void start(AxContext context) {}

        @AxJob(name = "diamond-left", dependsOn = "diamond-start", timeout = "5s")
        public void left(AxContext context) {}

        @AxJob(name = "diamond-right", dependsOn = "diamond-start", timeout = "5s")
        public void right(AxContext context) {
            throw new IllegalStateException("the right branch always fails");
        }

        @AxJob(
                name = "diamond-join",
                dependsOn = {"diamond-left", "diamond-right"},
                timeout = "5s")
        public void join(AxContext context) {}
    }

    /** A task that declares parameters, one of them secret: what its runs were given. */
    static class Report {
        final List<java.util.Map<String, String>> runs = new java.util.concurrent.CopyOnWriteArrayList<>();

        @AxJob(
                name = "report",
                params = {"region=eu", "api-token=s3cr3t"},
                timeout = "5s")
        public void report(AxContext context) {
            runs.add(context.params());
        }
    }

    @TestConfiguration
    static class Jobs {

        @Bean
        Echo echo() {
            return new Echo();
        }

        @Bean
        Report report() {
            return new Report();
        }

        @Bean
        Diamond diamond() {
            return new Diamond();
        }
    }
}
