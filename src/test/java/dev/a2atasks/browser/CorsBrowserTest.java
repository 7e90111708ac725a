package dev.a2atasks.browser;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;

/**
 * A browser app on another origin, for real: a page served from a second loopback port calls the
 * HTTP+JSON binding with {@code fetch} and a bearer token — ListTasks, GetTask, SendMessage and both
 * streams — in headless Chromium. From the allowed origin it works; from an origin not on the list
 * the browser itself blocks it.
 */
@QuarkusTest
@TestProfile(BrowserProfile.class)
class CorsBrowserTest extends BindingTest {

    private static final String TENANT = "CorsBrowserTest";
    private static final String PAGE = "<!DOCTYPE html><html><head><meta charset=utf-8><title>app</title></head><body>app</body></html>";

    private HttpServer allowed;
    private HttpServer other;
    private Browser browser;

    @BeforeAll
    void start() throws Exception {
        String origin = ConfigProvider.getConfig().getValue("quarkus.http.cors.origins", String.class);
        allowed = page(URI.create(origin).getPort());
        other = page(BrowserProfile.freePort());
        browser = new Browser();
    }

    @AfterAll
    void stop() throws Exception {
        browser.close();
        allowed.stop(0);
        other.stop(0);
    }

    private static HttpServer page(int port) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.createContext("/", exchange -> {
            byte[] body = PAGE.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return server;
    }

    /**
     * What the app's page runs: the four calls, each reported as what the page could read of it
     * (status, a field of the body, an exposed header), or the error fetch threw.
     */
    private static final String APP = """
            const [service, token, done] = arguments;
            const headers = { 'Authorization': 'Bearer ' + token, 'A2A-Version': '1.0' };
            const json = { ...headers, 'Content-Type': 'application/json' };
            const out = {};
            const attempt = async (name, call) => {
              try { out[name] = await call(); } catch (e) { out[name] = 'blocked: ' + e.name + ': ' + e.message; }
            };
            (async () => {
              await attempt('list', async () => {
                const r = await fetch(service + 'tasks?pageSize=5', { headers });
                const body = await r.json();
                return r.status + ' total=' + body.totalSize + ' requestId=' + (r.headers.get('X-Request-Id') ? 'exposed' : 'hidden');
              });
              await attempt('get', async () => {
                const r = await fetch(service + 'tasks/cors-1', { headers });
                return r.status + ' ' + (await r.json()).id;
              });
              await attempt('send', async () => {
                const message = { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'from the browser' }] } };
                const r = await fetch(service + 'message:send', { method: 'POST', headers: json, body: JSON.stringify(message) });
                const body = await r.json();
                return r.status + ' ' + body.task.status.state;
              });
              await attempt('stream', async () => {
                const message = { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'streamed' }] } };
                const r = await fetch(service + 'message:stream', { method: 'POST', headers: { ...json, 'Accept': 'text/event-stream' },
                  body: JSON.stringify(message) });
                const text = await r.text();
                const events = text.split('\\n\\n').filter(b => b.startsWith('data:')).map(b => JSON.parse(b.slice(5)));
                const last = events[events.length - 1];
                return r.status + ' events=' + events.length + ' last=' + (last.statusUpdate ? last.statusUpdate.status.state : Object.keys(last)[0]);
              });
              await attempt('subscribe', async () => {
                const r = await fetch(service + 'tasks/cors-2:subscribe', { headers: { ...headers, 'Accept': 'text/event-stream' } });
                const events = (await r.text()).split('\\n\\n').filter(b => b.startsWith('data:')).map(b => JSON.parse(b.slice(5)));
                return r.status + ' events=' + events.length + ' ' + events[0].task.status.state;
              });
              done(out);
            })();
            """;

    @Test
    void anAllowedOriginCallsEveryKindOfOperationAndAnotherIsBlockedByTheBrowser() {
        db.clearTenant(TENANT);
        for (int i = 1; i <= 3; i++) { // cors-2 waits for input: a subscription gets its snapshot and ends
            db.insertTask(TENANT, "app-user", "cors-" + i, "ctx", i == 2 ? "TASK_STATE_INPUT_REQUIRED" : "TASK_STATE_WORKING",
                    Instant.now().minusSeconds(60 - i));
        }
        String token = Tokens.valid(TENANT, "app-user");
        String service = root.toString().replace("127.0.0.1", "localhost");

        browser.driver.get("http://localhost:" + allowed.getAddress().getPort() + "/");
        @SuppressWarnings("unchecked")
        Map<String, Object> fromAllowed = (Map<String, Object>) browser.asyncScript(APP, service, token);
        assertEquals("200 total=3 requestId=exposed", fromAllowed.get("list"), fromAllowed.toString());
        assertEquals("200 cors-1", fromAllowed.get("get"), fromAllowed.toString());
        assertEquals("200 TASK_STATE_COMPLETED", fromAllowed.get("send"), fromAllowed.toString());
        String stream = (String) fromAllowed.get("stream");
        assertTrue(stream.startsWith("200 events=") && stream.endsWith("last=TASK_STATE_COMPLETED"), stream);
        assertEquals("200 events=1 TASK_STATE_INPUT_REQUIRED", fromAllowed.get("subscribe"), fromAllowed.toString());

        long before = db.queryLong("SELECT count(*) FROM tasks WHERE tenant = '" + TENANT + "'");
        browser.driver.get("http://localhost:" + other.getAddress().getPort() + "/");
        @SuppressWarnings("unchecked")
        Map<String, Object> fromOther = (Map<String, Object>) browser.asyncScript(APP, service, token);
        for (String call : List.of("list", "get", "send", "stream", "subscribe")) {
            assertTrue(String.valueOf(fromOther.get(call)).startsWith("blocked: TypeError"), call + ": " + fromOther);
        }
        // The preflight refused, the writes never ran: the browser does not send what it may not.
        assertEquals(before, db.queryLong("SELECT count(*) FROM tasks WHERE tenant = '" + TENANT + "'"));
    }

    @Test
    void thePreflightNamesWhatABrowserAppNeedsAndIsCachedOnlyForTheAllowedOrigin() {
        String origin = ConfigProvider.getConfig().getValue("quarkus.http.cors.origins", String.class);
        Response ok = given().header("Origin", origin).header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "authorization,a2a-version,content-type")
                .options(root + "message:stream");
        assertEquals(origin, ok.header("Access-Control-Allow-Origin"));
        String allowHeaders = ok.header("Access-Control-Allow-Headers").toLowerCase();
        for (String header : List.of("authorization", "a2a-version", "a2a-extensions", "content-type", "x-request-id")) {
            assertTrue(allowHeaders.contains(header), allowHeaders);
        }
        assertEquals("3600", ok.header("Access-Control-Max-Age"));
        assertTrue(ok.header("Access-Control-Allow-Methods").contains("POST"));
        String credentials = ok.header("Access-Control-Allow-Credentials");
        assertTrue(credentials == null || credentials.equals("false"), "credentials (cookies) are never allowed: " + credentials);

        Response actual = given().header("Origin", origin).header("Authorization", "Bearer " + Tokens.valid(TENANT, "app-user"))
                .get(root + "tasks");
        String exposed = actual.header("Access-Control-Expose-Headers");
        for (String header : List.of("X-Request-Id", "Retry-After", "A2A-Extensions", "ETag")) {
            assertTrue(exposed.contains(header), exposed);
        }

        Response stranger = given().header("Origin", "https://evil.example").header("Access-Control-Request-Method", "GET")
                .header("Access-Control-Request-Headers", "authorization").options(root + "tasks");
        assertNull(stranger.header("Access-Control-Allow-Origin"), "no grant for an origin not on the list");
    }
}
