package dev.a2atasks.browser;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * The task console in a real headless Chromium against the real service and PostgreSQL: what a
 * person running agents does with it — sign in, list and filter, load every page, watch changes
 * arrive, send and watch the stream, cancel, read a long transcript both ways, manage webhooks —
 * and what it must never do: run an agent's text as HTML, or go blank on an error.
 */
@QuarkusTest
@TestProfile(BrowserProfile.class)
class ConsoleBrowserTest extends BindingTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    private Browser browser;

    @BeforeAll
    void start() throws Exception {
        browser = new Browser();
    }

    @AfterAll
    void stop() throws Exception {
        browser.close();
    }

    @Test
    void theListIsTheCallersTasksInListTasksOrderWithFiltersAndEveryPage() {
        String tenant = "ConsoleBrowserTest-list";
        db.clearTenant(tenant);
        db.clearTenant(tenant + "-other");
        Instant base = Instant.now().minus(Duration.ofHours(1));
        String[] states = { "TASK_STATE_WORKING", "TASK_STATE_COMPLETED", "TASK_STATE_INPUT_REQUIRED", "TASK_STATE_FAILED" };
        for (int i = 0; i < 250; i++) { // pairs share a timestamp: the order's tie-break shows too
            db.insertTask(tenant, "operator", String.format("task-%03d", i), "ctx-" + (i % 3), states[i % 4], base.plusSeconds(i / 2));
        }
        for (int i = 0; i < 5; i++) { // not the caller's: another subject, and the same subject in another tenant
            db.insertTask(tenant, "someone-else", "foreign-" + i, "ctx-0", "TASK_STATE_WORKING", base.plusSeconds(500 + i));
            db.insertTask(tenant + "-other", "operator", "foreign-" + i, "ctx-0", "TASK_STATE_WORKING", base.plusSeconds(500 + i));
        }
        String token = Tokens.valid(tenant, "operator");
        List<String> expected = walk(api("HTTP+JSON"), token, Map.of("pageSize", "100")).stream().flatMap(List::stream).toList();
        assertEquals(250, expected.size());

        signIn(token);
        awaitRows(100);
        assertEquals(expected.subList(0, 100), rows());
        assertEquals("250", browser.driver.findElement(By.id("total")).getAttribute("data-total"));

        while (browser.driver.findElement(By.id("load-more")).isDisplayed()) {
            int shown = rows().size();
            browser.driver.findElement(By.id("load-more")).click();
            browser.await(WAIT, d -> rows().size() > shown);
        }
        List<String> all = rows();
        assertEquals(expected, all, "every task once, in ListTasks order");
        assertEquals(250, new HashSet<>(all).size());

        new Select(browser.driver.findElement(By.id("filter-status"))).selectByValue("TASK_STATE_INPUT_REQUIRED");
        browser.driver.findElement(By.id("apply-filters")).click();
        List<String> waiting = walk(api("HTTP+JSON"), token, Map.of("pageSize", "100", "status", "TASK_STATE_INPUT_REQUIRED"))
                .stream().flatMap(List::stream).toList();
        browser.await(WAIT, d -> rows().equals(waiting));
        assertEquals(String.valueOf(waiting.size()), browser.driver.findElement(By.id("total")).getAttribute("data-total"));
        assertNoError();
    }

    @Test
    void aTaskChangedByAnotherClientMovesToTheTopWithinTwoSeconds() {
        String tenant = "ConsoleBrowserTest-live";
        db.clearTenant(tenant);
        String token = Tokens.valid(tenant, "operator");
        String waiting = send(token, "input please", null, false).getString("task.id");
        for (int i = 0; i < 3; i++) {
            send(token, "newer " + i, null, false);
        }
        signIn(token);
        awaitRows(4);
        assertEquals(waiting, rows().get(3));

        // Another client answers the waiting task: it completes, and moves to the top here.
        send(token, "here is more", waiting, false);
        long answered = System.nanoTime();
        browser.await(Duration.ofSeconds(2), d -> rows().get(0).equals(waiting));
        assertTrue(System.nanoTime() - answered < Duration.ofSeconds(2).toNanos());
        assertEquals("COMPLETED", rowState(waiting));

        // A new task from another client appears at the top, and the total counts it.
        String fresh = send(token, "brand new", null, false).getString("task.id");
        browser.await(Duration.ofSeconds(2), d -> rows().get(0).equals(fresh));
        browser.await(WAIT, d -> "5".equals(d.findElement(By.id("total")).getAttribute("data-total")));
        assertEquals(5, rows().size());
        assertNoError();
    }

    @Test
    void aMessageSentFromTheConsoleStreamsItsAnswerUntilItCompletes() {
        String tenant = "ConsoleBrowserTest-send";
        db.clearTenant(tenant);
        signIn(Tokens.valid(tenant, "operator"));
        awaitSignedIn();
        browser.driver.findElement(By.id("send-text")).sendKeys("hello from the console");
        browser.driver.findElement(By.id("send-button")).click();
        browser.await(WAIT, d -> d.findElement(By.id("send-events")).getText().contains("stream closed"));
        String events = browser.driver.findElement(By.id("send-events")).getText();
        // A new task streams from its creation: every chunk arrives as an update.
        assertTrue(events.contains("SUBMITTED") && events.contains("status WORKING") && events.contains("artifact echo")
                && events.contains("(last chunk)") && events.contains("status COMPLETED"), events);
        assertTrue(events.indexOf("status COMPLETED") < events.indexOf("stream closed"), events);
        // The task opens: its artifact is the three chunks applied by the proto's rules.
        browser.await(WAIT, d -> "COMPLETED".equals(d.findElement(By.id("detail-state")).getText()));
        assertEquals("hello from the console", browser.driver.findElement(By.cssSelector("#artifacts .artifact")).getText()
                .lines().skip(1).reduce("", String::concat));
        assertNoError();
    }

    @Test
    void aRunningTaskIsCancelledFromItsDetailAndItsWebhooksAreManagedThere() {
        String tenant = "ConsoleBrowserTest-cancel";
        db.clearTenant(tenant);
        String token = Tokens.valid(tenant, "operator");
        String running = send(token, "slow work", null, true).getString("task.id");
        signIn(token);
        awaitRows(1);
        openTask(running);
        browser.await(WAIT, d -> "WORKING".equals(d.findElement(By.id("detail-state")).getText()));
        browser.driver.findElement(By.id("cancel")).click();
        browser.await(WAIT, d -> "CANCELED".equals(d.findElement(By.id("detail-state")).getText()));
        assertEquals("TASK_STATE_CANCELED", getTask(token, running).getString("status.state"));

        browser.driver.findElement(By.id("push-url")).sendKeys("https://203.0.113.10/hooks/console");
        browser.driver.findElement(By.id("push-add")).click();
        browser.await(WAIT, d -> d.findElements(By.cssSelector("#push-configs li")).size() == 1);
        assertTrue(browser.driver.findElement(By.id("push-configs")).getText().contains("https://203.0.113.10/hooks/console"));
        assertEquals(1, pushConfigs(token, running).size());
        browser.driver.findElement(By.cssSelector("#push-configs .push-delete")).click();
        browser.await(WAIT, d -> d.findElements(By.cssSelector("#push-configs li")).isEmpty());
        assertEquals(0, pushConfigs(token, running).size());
        assertNoError();
    }

    @Test
    void aThousandMessageTranscriptPagesBothWays() {
        String tenant = "ConsoleBrowserTest-transcript";
        db.clearTenant(tenant);
        long pk = db.insertTask(tenant, "operator", "long-talk", "ctx", "TASK_STATE_INPUT_REQUIRED", Instant.now().minusSeconds(30));
        db.insertMessages(pk, 1000); // "message 0" .. "message 999"
        signIn(Tokens.valid(tenant, "operator"));
        awaitRows(1);
        openTask("long-talk");
        browser.await(WAIT, d -> transcript().size() == 50);
        assertEquals(range(999, 950), transcript(), "newest first");
        browser.driver.findElement(By.id("more-messages")).click();
        browser.await(WAIT, d -> transcript().size() == 100);
        assertEquals(range(999, 900), transcript());

        browser.driver.findElement(By.id("oldest")).click();
        browser.await(WAIT, d -> transcript().size() == 50 && transcript().get(0).equals("message 0"));
        assertEquals(range(0, 49), transcript(), "oldest first");
        for (int page = 2; page <= 20; page++) {
            int expected = page * 50;
            browser.driver.findElement(By.id("more-messages")).click();
            browser.await(WAIT, d -> transcript().size() == expected);
        }
        assertEquals(range(0, 999), transcript(), "to the end, no gap, no duplicate");
        assertFalse(browser.driver.findElement(By.id("more-messages")).isDisplayed());
        assertNoError();
    }

    @Test
    void anAgentsTextIsShownAsTextAndNeverRuns() {
        String tenant = "ConsoleBrowserTest-xss";
        db.clearTenant(tenant);
        String token = Tokens.valid(tenant, "operator");
        String payload = "<img src=x onerror=\"window.pwned=1;alert(1)\">";
        String id = send(token, payload, null, false).getString("task.id");
        signIn(token);
        awaitRows(1);
        openTask(id);
        browser.await(WAIT, d -> d.findElement(By.id("transcript")).getText().contains(payload));
        assertTrue(browser.driver.findElement(By.id("artifacts")).getText().replace("\n", "").contains(payload), "the echo, as text");
        assertTrue(browser.driver.findElements(By.tagName("img")).isEmpty(), "nothing of the task became an element");
        assertNull(browser.script("return window.pwned"));
        assertThrows(NoAlertPresentException.class, () -> browser.driver.switchTo().alert());
    }

    @Test
    void anExpiredTokenIsShownAsTheErrorItIs() {
        signIn(Tokens.expired("operator"));
        browser.await(WAIT, d -> d.findElement(By.id("error")).isDisplayed());
        String error = browser.driver.findElement(By.id("error")).getText();
        assertTrue(error.contains("HTTP 401") && error.contains("UNAUTHENTICATED") && error.contains("sign in again"), error);
        assertTrue(browser.driver.findElement(By.id("sign-in")).isDisplayed());
        assertFalse(browser.driver.findElement(By.id("app")).isDisplayed());
        assertNull(browser.script("return sessionStorage.getItem('a2a-console-token')"), "a refused token is not kept");
    }

    @Test
    void theConsoleIsServedWithItsSecurityHeaders() {
        Response page = given().get(root + "console/");
        assertEquals(200, page.statusCode());
        String csp = page.header("Content-Security-Policy");
        assertTrue(csp != null && csp.contains("default-src 'none'") && csp.contains("script-src 'self'")
                && csp.contains("frame-ancestors 'none'"), String.valueOf(csp));
        assertEquals("nosniff", page.header("X-Content-Type-Options"));
        assertEquals("no-referrer", page.header("Referrer-Policy"));
        assertEquals("DENY", page.header("X-Frame-Options"));
        assertEquals("nosniff", given().get(root + "console/console.js").header("X-Content-Type-Options"));
        given().redirects().follow(false).get(root + "console").then().statusCode(org.hamcrest.Matchers.anyOf(
                org.hamcrest.Matchers.is(301), org.hamcrest.Matchers.is(302)));
    }

    /**
     * The picture in docs/browsers.md: demo tasks at fixed times, one opened. Taken on every run
     * (into target/), so it is known to render; written over docs/console.png only when asked
     * ({@code -Da2a.docs.update=true}), so test runs leave the tree as they found it.
     */
    @Test
    void screenshotForTheReadme() throws Exception {
        String tenant = "console-demo";
        db.clearTenant(tenant);
        Instant at = Instant.parse("2026-12-01T09:00:00Z");
        String[][] demo = {
            { "report-q4", "TASK_STATE_WORKING" }, { "translate-fr", "TASK_STATE_INPUT_REQUIRED" }, { "summarise-call", "TASK_STATE_COMPLETED" },
            { "invoice-check", "TASK_STATE_FAILED" }, { "image-tags", "TASK_STATE_COMPLETED" }, { "weekly-digest", "TASK_STATE_CANCELED" } };
        long opened = 0;
        for (int i = 0; i < demo.length; i++) {
            long pk = db.insertTask(tenant, "operator", demo[i][0], "ctx-demo-" + (i % 2), demo[i][1], at.minusSeconds(600L * i));
            if (i == 2) {
                opened = pk;
            }
        }
        String[][] talk = {
            { "ROLE_USER", "Summarise yesterday's call with the supplier, in five bullet points." },
            { "ROLE_AGENT", "Which call? I see two: 10:00 (logistics) and 15:30 (pricing)." },
            { "ROLE_USER", "The pricing one." },
            { "ROLE_AGENT", "Done: the summary is attached as an artifact." } };
        for (int i = 0; i < talk.length; i++) {
            db.execute("INSERT INTO messages (task_pk, owner, seq, message_id, role, parts) SELECT pk, owner, " + i + ", 'demo-" + i
                    + "', '" + talk[i][0] + "', jsonb_build_array(jsonb_build_object('text', " + quote(talk[i][1]) + ")) FROM tasks"
                    + " WHERE pk = " + opened);
        }
        db.execute("UPDATE tasks SET next_seq = " + talk.length + " WHERE pk = " + opened);
        db.execute("INSERT INTO artifacts (task_pk, owner, artifact_id, ord, name, parts) SELECT pk, owner, 'summary', 0, 'summary.md', "
                + "jsonb_build_array(jsonb_build_object('text', " + quote("• Prices hold until March\n• 3% off above 10k units\n"
                        + "• Delivery moves to weekly\n• New contact: J. Ortiz\n• Review on 12 January") + ")) FROM tasks WHERE pk = " + opened);
        signIn(Tokens.valid(tenant, "operator"));
        awaitRows(demo.length);
        openTask("summarise-call");
        browser.await(WAIT, d -> transcript().size() == talk.length);
        Path shot = browser.driver.getScreenshotAs(OutputType.FILE).toPath();
        Path target = Boolean.getBoolean("a2a.docs.update") ? Path.of("docs", "console.png") : Path.of("target", "console.png");
        Files.createDirectories(target.getParent());
        Files.copy(shot, target, StandardCopyOption.REPLACE_EXISTING);
        assertTrue(Files.size(target) > 10_000);
    }

    // ------------------------------------------------------------------------------------ helpers

    /** A fresh tab's sign-in: the token of an earlier test is cleared before the page can use it. */
    private void signIn(String token) {
        browser.driver.get(root + "console/console.css"); // this origin, no script
        browser.script("sessionStorage.clear()");
        browser.driver.get(root + "console/");
        browser.await(WAIT, d -> d.findElement(By.id("sign-in")).isDisplayed());
        browser.script("document.getElementById('token').value = arguments[0]", token);
        browser.driver.findElement(By.id("sign-in-button")).click();
    }

    private void awaitSignedIn() {
        browser.await(WAIT, d -> d.findElement(By.id("app")).isDisplayed());
    }

    private void awaitRows(int count) {
        awaitSignedIn();
        browser.await(WAIT, d -> rows().size() == count);
    }

    @SuppressWarnings("unchecked")
    private List<String> rows() {
        return (List<String>) browser.script("return [...document.querySelectorAll('#task-rows tr')].map(r => r.dataset.taskId)");
    }

    private String rowState(String id) {
        return browser.driver.findElement(By.cssSelector("#task-rows tr[data-task-id='" + id + "'] .state")).getText();
    }

    @SuppressWarnings("unchecked")
    private List<String> transcript() {
        return (List<String>) browser.script(
                "return [...document.querySelectorAll('#transcript li')].map(li => li.childNodes[1] ? li.childNodes[1].textContent : '')");
    }

    private void openTask(String id) {
        browser.await(WAIT, d -> !d.findElements(By.cssSelector("#task-rows tr[data-task-id='" + id + "']")).isEmpty());
        WebElement row = browser.driver.findElement(By.cssSelector("#task-rows tr[data-task-id='" + id + "']"));
        row.click();
        browser.await(WAIT, d -> id.equals(d.findElement(By.id("detail-id")).getText()));
    }

    private void assertNoError() {
        assertFalse(browser.driver.findElement(By.id("error")).isDisplayed(),
                () -> browser.driver.findElement(By.id("error")).getText());
    }

    private static String quote(String text) {
        return "'" + text.replace("'", "''") + "'";
    }

    private static List<String> range(int from, int to) {
        List<String> texts = new ArrayList<>();
        for (int i = from; from <= to ? i <= to : i >= to; i += from <= to ? 1 : -1) {
            texts.add("message " + i);
        }
        return texts;
    }

    /** SendMessage over HTTP+JSON as another client would; blocking unless {@code immediately}. */
    private JsonPath send(String token, String text, String taskId, boolean immediately) {
        String message = "{\"messageId\":\"" + UUID.randomUUID() + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":"
                + io.vertx.core.json.Json.encode(text) + "}]" + (taskId == null ? "" : ",\"taskId\":\"" + taskId + "\"") + "}";
        String body = "{\"message\":" + message + (immediately ? ",\"configuration\":{\"returnImmediately\":true}" : "") + "}";
        return given().contentType("application/json").header("A2A-Version", "1.0").header("Authorization", "Bearer " + token)
                .body(body).post(root + "message:send").then().statusCode(200).extract().jsonPath();
    }

    private JsonPath getTask(String token, String id) {
        return given().header("A2A-Version", "1.0").header("Authorization", "Bearer " + token).get(root + "tasks/" + id).then().statusCode(200).extract().jsonPath();
    }

    /** The task's webhook configs (the proto's JSON leaves an empty list out). */
    private List<Object> pushConfigs(String token, String id) {
        List<Object> configs = given().header("A2A-Version", "1.0").header("Authorization", "Bearer " + token).get(root + "tasks/" + id + "/pushNotificationConfigs")
                .then().statusCode(200).extract().jsonPath().getList("configs");
        return configs == null ? List.of() : configs;
    }
}
