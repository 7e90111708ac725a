package dev.a2atasks.push;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.a2atasks.paging.KeyRing;
import dev.a2atasks.proto.v1.AuthenticationInfo;
import dev.a2atasks.proto.v1.ListTaskPushNotificationConfigsResponse;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.proto.v1.TaskPushNotificationConfig;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.GrpcChannels;
import dev.a2atasks.support.PushApi;
import dev.a2atasks.support.PushApi.Said;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;

/**
 * The four config operations on the three bindings, with the production address policy (no
 * allow-list): registrations answered with their secrets masked, paged with sealed tokens bound
 * to caller and task, scoped like tasks (another caller's task is TaskNotFound, same bytes as a
 * task that does not exist), every private-network URL refused at registration naming the field,
 * bad input refused naming the field, never a 5xx. Webhook URLs here are in 203.0.113.0/24
 * (documentation addresses: public, allowed, never called by these tests' tasks).
 */
@QuarkusTest
class PushConfigOperationsTest extends BindingTest {

    private static final String TENANT = "PushConfigOperationsTest";
    private static final String HOOK = "https://203.0.113.10/hooks/a2a";

    private PushApi push() {
        return new PushApi(root);
    }

    /** A live task of the caller's (waiting for input, so it sends no events while the test runs). */
    private String task(String subject) {
        try (GrpcChannels channels = new GrpcChannels(root)) {
            Task task = channels.stub(Tokens.valid(TENANT, subject)).sendMessage(PushDeliveryTest.send("input please", null)).getTask();
            assertEquals(TaskState.TASK_STATE_INPUT_REQUIRED, task.getStatus().getState());
            return task.getId();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @ParameterizedTest
    @MethodSource("bindings")
    void createGetListDeleteWithSecretsMasked(String binding) {
        String bearer = Tokens.valid(TENANT, "alice");
        String taskId = task("alice");
        TaskPushNotificationConfig created = push().create(binding, bearer, TaskPushNotificationConfig.newBuilder().setTaskId(taskId)
                .setId("c1").setUrl(HOOK).setToken("token-value")
                .setAuthentication(AuthenticationInfo.newBuilder().setScheme("Bearer").setCredentials("secret-value")).build()).ok();
        TaskPushNotificationConfig masked = TaskPushNotificationConfig.newBuilder().setId("c1").setTaskId(taskId).setUrl(HOOK)
                .setToken(PushConfigs.MASK).setAuthentication(AuthenticationInfo.newBuilder().setScheme("Bearer").setCredentials(PushConfigs.MASK))
                .build();
        assertEquals(masked, created);
        assertEquals(masked, push().get(binding, bearer, taskId, "c1").ok());

        TaskPushNotificationConfig generated = push().create(binding, bearer, TaskPushNotificationConfig.newBuilder().setTaskId(taskId)
                .setUrl("http://203.0.113.11:8080/other").build()).ok();
        assertEquals(36, generated.getId().length(), "an id is assigned: " + generated.getId());
        assertFalse(generated.hasAuthentication());
        assertEquals("", generated.getToken());

        ListTaskPushNotificationConfigsResponse listed = push().list(binding, bearer, taskId, null, null).ok();
        List<String> ids = listed.getConfigsList().stream().map(TaskPushNotificationConfig::getId).toList();
        assertEquals(List.of("c1", generated.getId()).stream().sorted().toList(), ids);
        assertEquals("", listed.getNextPageToken());

        // Same id again: the registration is replaced, not added.
        push().create(binding, bearer, TaskPushNotificationConfig.newBuilder().setTaskId(taskId).setId("c1")
                .setUrl("https://203.0.113.12/replaced").build()).ok();
        assertEquals("https://203.0.113.12/replaced", push().get(binding, bearer, taskId, "c1").ok().getUrl());
        assertEquals(2, push().list(binding, bearer, taskId, null, null).ok().getConfigsCount());

        push().delete(binding, bearer, taskId, "c1").ok();
        Said gone = push().get(binding, bearer, taskId, "c1").failed();
        assertEquals("NOT_FOUND", gone.status());
        assertEquals("TASK_NOT_FOUND", gone.reason());
        assertEquals("Push notification config not found: c1 (task " + taskId + ")", gone.message());
        push().delete(binding, bearer, taskId, "c1").ok(); // idempotent
        assertEquals(1, push().list(binding, bearer, taskId, null, null).ok().getConfigsCount());
    }

    @ParameterizedTest
    @MethodSource("bindings")
    void listPagesWithSealedTokensBoundToCallerAndTask(String binding) {
        String bearer = Tokens.valid(TENANT, "erin");
        String taskId = task("erin");
        String otherTask = task("erin");
        for (int i = 0; i < 5; i++) {
            push().create(binding, bearer, TaskPushNotificationConfig.newBuilder().setTaskId(taskId).setId("cfg-" + i).setUrl(HOOK).build()).ok();
        }
        List<String> seen = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            ListTaskPushNotificationConfigsResponse page = push().list(binding, bearer, taskId, 2, token).ok();
            page.getConfigsList().forEach(c -> seen.add(c.getId()));
            token = page.getNextPageToken().isEmpty() ? null : page.getNextPageToken();
            pages++;
        } while (token != null);
        assertEquals(List.of("cfg-0", "cfg-1", "cfg-2", "cfg-3", "cfg-4"), seen);
        assertEquals(3, pages);

        String next = push().list(binding, bearer, taskId, 2, null).ok().getNextPageToken();
        String otherWalk = "pageToken was issued for a different caller or filter set";
        assertEquals(otherWalk, push().list(binding, bearer, otherTask, 2, next).failed().message(), "another task");
        assertEquals(otherWalk, push().list(binding, Tokens.valid(TENANT, "frank"), taskId, 2, next).failed().message(), "another caller");
        char last = next.charAt(next.length() / 2);
        String edited = next.substring(0, next.length() / 2) + (last == 'A' ? 'B' : 'A') + next.substring(next.length() / 2 + 1);
        assertEquals("pageToken signature is invalid", push().list(binding, bearer, taskId, 2, edited).failed().message());
        String listTasksToken = given().header("Authorization", "Bearer " + bearer).header("A2A-Version", "1.0")
                .get("/tasks?pageSize=1").then().statusCode(200).extract().path("nextPageToken");
        assertEquals(otherWalk, push().list(binding, bearer, taskId, 2, listTasksToken).failed().message(), "a ListTasks token");
        Said refused = push().list(binding, bearer, taskId, 2, edited).failed();
        assertEquals(List.of("pageToken"), refused.fields());
    }

    @ParameterizedTest
    @MethodSource("bindings")
    void anotherCallersTaskIsAnsweredLikeATaskThatDoesNotExist(String binding) {
        String alice = Tokens.valid(TENANT, "alice");
        String bob = Tokens.valid(TENANT, "bob");
        String taskId = task("alice");
        push().create(binding, alice, TaskPushNotificationConfig.newBuilder().setTaskId(taskId).setId("mine").setUrl(HOOK).build()).ok();
        TaskPushNotificationConfig intrusion = TaskPushNotificationConfig.newBuilder().setTaskId(taskId).setId("mine").setUrl(HOOK).build();

        List<Said> foreign = List.of(push().create(binding, bob, intrusion).failed(), push().get(binding, bob, taskId, "mine").failed(),
                push().list(binding, bob, taskId, null, null).failed(), push().delete(binding, bob, taskId, "mine").failed());
        assertEquals("mine", push().get(binding, alice, taskId, "mine").ok().getId(), "bob's delete removed nothing");
        db.execute("DELETE FROM tasks WHERE tenant = '" + TENANT + "' AND id = '" + taskId + "'");
        List<Said> missing = List.of(push().create(binding, bob, intrusion).failed(), push().get(binding, bob, taskId, "mine").failed(),
                push().list(binding, bob, taskId, null, null).failed(), push().delete(binding, bob, taskId, "mine").failed());
        for (int i = 0; i < 4; i++) {
            assertEquals("TASK_NOT_FOUND", foreign.get(i).reason());
            assertEquals(missing.get(i).raw(), foreign.get(i).raw(), "operation " + i + ": the same bytes");
        }
    }

    @Test
    void aTenantOtherThanTheCallersIsTaskNotFound() {
        String bearer = Tokens.valid(TENANT, "alice");
        String taskId = task("alice");
        given().header("Authorization", "Bearer " + bearer).header("A2A-Version", "1.0")
                .get("/other-tenant/tasks/" + taskId + "/pushNotificationConfigs").then().statusCode(404)
                .body("error.message", org.hamcrest.Matchers.equalTo("Task not found: " + taskId));
        given().header("Authorization", "Bearer " + bearer).header("A2A-Version", "1.0")
                .get("/" + TENANT + "/tasks/" + taskId + "/pushNotificationConfigs").then().statusCode(200);
    }

    static List<String> privateUrls() {
        return List.of("http://127.0.0.1/", "http://10.0.0.1/", "http://[::1]/", "http://169.254.169.254/latest/meta-data",
                "http://localhost:8080/hook", "http://[::ffff:127.0.0.1]/", "http://2130706433/", "http://192.168.1.1/",
                "http://172.16.0.1/", "http://[fe80::1]/", "http://[fd00::1]/", "http://0.0.0.0/", "http://224.0.0.1/");
    }

    @ParameterizedTest
    @MethodSource("bindings")
    void privateNetworkUrlsAreRefusedAtRegistrationNamingTheField(String binding) {
        String bearer = Tokens.valid(TENANT, "grace");
        String taskId = task("grace");
        for (String url : privateUrls()) {
            Said said = push().create(binding, bearer, TaskPushNotificationConfig.newBuilder().setTaskId(taskId).setUrl(url).build()).failed();
            assertEquals("INVALID_ARGUMENT", said.status(), url);
            assertEquals(List.of("url"), said.fields(), url);
            assertTrue(said.message().startsWith("url is refused: its host resolves to "), url + ": " + said.message());
        }
        Said file = push().create(binding, bearer, TaskPushNotificationConfig.newBuilder().setTaskId(taskId).setUrl("file:///etc/passwd").build())
                .failed();
        assertEquals(new Said("INVALID_ARGUMENT", "url must use http or https", null, List.of("url"), file.raw()), file);
        assertEquals(0, push().list(binding, bearer, taskId, null, null).ok().getConfigsCount(), "nothing was stored");
    }

    @Test
    void aMessageCarryingAPrivateWebhookIsRefusedBeforeAnyTaskExists() {
        String bearer = Tokens.valid(TENANT, "heidi");
        String body = PushApi.json(PushDeliveryTest.send("hello", TaskPushNotificationConfig.newBuilder().setUrl("http://169.254.169.254/").build()));
        given().contentType("application/json").header("A2A-Version", "1.0").header("Authorization", "Bearer " + bearer).body(body)
                .post("/message:send").then().statusCode(400)
                .body("error.details.find { it.'@type'.endsWith('BadRequest') }.fieldViolations[0].field",
                        org.hamcrest.Matchers.equalTo("configuration.taskPushNotificationConfig.url"));
        assertEquals(0, db.queryLong("SELECT count(*) FROM tasks WHERE tenant = '" + TENANT + "' AND owner = 'heidi'"));
    }

    @ParameterizedTest
    @MethodSource("bindings")
    void badInputOnEachOperationIsRefusedNamingTheField(String binding) {
        String bearer = Tokens.valid(TENANT, "ivan");
        String taskId = task("ivan");
        List<Map.Entry<String, TaskPushNotificationConfig.Builder>> creates = List.of(
                Map.entry("url", TaskPushNotificationConfig.newBuilder()),
                Map.entry("url", TaskPushNotificationConfig.newBuilder().setUrl("not a url")),
                Map.entry("url", TaskPushNotificationConfig.newBuilder().setUrl("https://203.0.113.1/" + "x".repeat(3000))),
                Map.entry("url", TaskPushNotificationConfig.newBuilder().setUrl("https://user:pw@203.0.113.1/")),
                Map.entry("authentication.credentials", TaskPushNotificationConfig.newBuilder().setUrl(HOOK)
                        .setAuthentication(AuthenticationInfo.newBuilder().setScheme("Bearer").setCredentials("a\r\nX-Evil: 1"))),
                Map.entry("authentication.scheme", TaskPushNotificationConfig.newBuilder().setUrl(HOOK)
                        .setAuthentication(AuthenticationInfo.newBuilder().setScheme("Bearer token"))),
                Map.entry("token", TaskPushNotificationConfig.newBuilder().setUrl(HOOK).setToken("caf\u00e9")),
                Map.entry("id", TaskPushNotificationConfig.newBuilder().setUrl(HOOK).setId("a\u0000b")));
        for (var entry : creates) {
            Said said = push().create(binding, bearer, entry.getValue().setTaskId(taskId).build()).failed();
            assertEquals("INVALID_ARGUMENT", said.status(), entry.getKey() + ": " + said);
            assertEquals(List.of(entry.getKey()), said.fields(), said.toString());
        }
        // An empty id cannot be spelled in an HTTP+JSON path; a NUL can, percent-encoded.
        String badId = binding.equals("HTTP+JSON") ? "a%00b" : "";
        assertEquals(List.of("id"), push().get(binding, bearer, taskId, badId).failed().fields());
        assertEquals(List.of("id"), push().delete(binding, bearer, taskId, badId).failed().fields());
        assertEquals(List.of("pageSize"), push().list(binding, bearer, taskId, 101, null).failed().fields());
        assertEquals(List.of("pageSize"), push().list(binding, bearer, taskId, -1, null).failed().fields());
        assertEquals(List.of("pageToken"), push().list(binding, bearer, taskId, null, "bm90IGEgdG9rZW4").failed().fields());
        if (!binding.equals("GRPC")) {
            assertEquals(List.of("taskId"), push().createRaw("JSONRPC", bearer, "", "{\"url\":\"" + HOOK + "\"}").failed().fields());
            Said body = push().createRaw(binding, bearer, taskId, "{\"url\": 7}").failed();
            assertEquals("INVALID_ARGUMENT", body.status());
        }
        given().header("Authorization", "Bearer " + bearer).header("A2A-Version", "1.0")
                .get("/tasks/" + taskId + "/pushNotificationConfigs?pageSize=abc").then().statusCode(400)
                .body("error.details.find { it.'@type'.endsWith('BadRequest') }.fieldViolations[0].field", org.hamcrest.Matchers.equalTo("pageSize"));
    }

    /** What a binding said, without its framing: the parity of the three bindings is on these. */
    record Told(String status, String message, String reason, List<String> fields) {
        static Told of(Said said) {
            return new Told(said.status(), said.message(), said.reason(), said.fields());
        }
    }

    @Test
    void everyBindingRefusesTheSameRequestWithTheSameError() {
        String bearer = Tokens.valid(TENANT, "liam");
        String taskId = task("liam");
        push().create("GRPC", bearer, TaskPushNotificationConfig.newBuilder().setTaskId(taskId).setId("one").setUrl(HOOK).build()).ok();
        String token = push().list("GRPC", bearer, taskId, 1, null).ok().getNextPageToken();
        assertEquals("", token, "a single registration is one page");
        List<java.util.function.Function<String, Said>> requests = List.of(
                b -> push().get(b, bearer, "no-such-task", "one").failed(),
                b -> push().get(b, bearer, taskId, "missing").failed(),
                b -> push().delete(b, bearer, "no-such-task", "one").failed(),
                b -> push().list(b, bearer, "no-such-task", null, null).failed(),
                b -> push().list(b, bearer, taskId, 101, null).failed(),
                b -> push().list(b, bearer, taskId, 10, "bm90IGEgdG9rZW4").failed(),
                b -> push().create(b, bearer, TaskPushNotificationConfig.newBuilder().setTaskId(taskId).setUrl("http://10.1.2.3/").build())
                        .failed(),
                b -> push().create(b, bearer, TaskPushNotificationConfig.newBuilder().setTaskId(taskId).setUrl("ftp://203.0.113.1/")
                        .setToken("a\nb").setAuthentication(AuthenticationInfo.newBuilder().setCredentials("c")).build()).failed());
        for (int i = 0; i < requests.size(); i++) {
            Told rest = Told.of(requests.get(i).apply("HTTP+JSON"));
            assertEquals(rest, Told.of(requests.get(i).apply("JSONRPC")), "request " + i + ": JSON-RPC");
            assertEquals(rest, Told.of(requests.get(i).apply("GRPC")), "request " + i + ": gRPC");
        }
    }

    @Test
    void aTaskHoldsATenRegistrationsAtMost() {
        String bearer = Tokens.valid(TENANT, "judy");
        String taskId = task("judy");
        for (int i = 0; i < 10; i++) {
            push().create("GRPC", bearer, TaskPushNotificationConfig.newBuilder().setTaskId(taskId).setId("n" + i).setUrl(HOOK).build()).ok();
        }
        Said full = push().create("HTTP+JSON", bearer, TaskPushNotificationConfig.newBuilder().setTaskId(taskId).setId("n10").setUrl(HOOK).build())
                .failed();
        assertEquals("INVALID_ARGUMENT", full.status());
        assertEquals(List.of("taskId"), full.fields());
        push().create("HTTP+JSON", bearer, TaskPushNotificationConfig.newBuilder().setTaskId(taskId).setId("n3").setUrl(HOOK).build()).ok();
    }

    @Inject
    SecretRotation rotation;

    @Test
    void secretsSealedWithAnOlderRingKeyAreSealedAgainWithTheCurrentOne() throws Throwable {
        String bearer = Tokens.valid(TENANT, "kate");
        String taskId = task("kate");
        push().create("GRPC", bearer, TaskPushNotificationConfig.newBuilder().setTaskId(taskId).setId("rotated").setUrl(HOOK)
                .setAuthentication(AuthenticationInfo.newBuilder().setScheme("Bearer").setCredentials("before-rotation")).build()).ok();
        // The test ring is k1 and k2 (current, application.properties): seal as a k1-era service would have.
        KeyRing ring = KeyRing.fromConfig(Optional.of("k1"), Map.of("k1", "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
                "k2", "ZmVkY2JhOTg3NjU0MzIxMGZlZGNiYTk4NzY1NDMyMTA="));
        SecretBox.Place place = new SecretBox.Place(TENANT, "kate", taskId, "rotated", "credentials");
        byte[] old = new SecretBox(ring).seal("before-rotation", place);
        db.execute("UPDATE push_configs SET sealed_with = 'k1', credentials_sealed = decode('" + HexFormat.of().formatHex(old)
                + "', 'hex') WHERE task_id = '" + taskId + "'");

        // 150 registrations ahead of it in key order whose key left the ring: passed over, never in the way.
        db.execute("INSERT INTO push_configs (tenant, owner, task_id, id, url, credentials_sealed, sealed_with, created_at)"
                + " SELECT '" + TENANT + "', 'kate', '" + taskId + "', 'a' || lpad(g::text, 3, '0'), 'https://hook.example/',"
                + " decode('00', 'hex'), 'k0', now() FROM generate_series(1, 150) AS g");

        int resealed = rotation.pass();

        assertTrue(resealed >= 1);
        assertEquals("k2", db.queryText("SELECT sealed_with FROM push_configs WHERE task_id = '" + taskId + "' AND id = 'rotated'").trim());
        byte[] now = HexFormat.of().parseHex(db.queryText("SELECT encode(credentials_sealed, 'hex') FROM push_configs WHERE task_id = '"
                + taskId + "' AND id = 'rotated'").trim());
        assertEquals("k2", SecretBox.keyIdOf(now));
        assertEquals("before-rotation", new SecretBox(ring).open(now, place));
        assertEquals(150, db.queryLong("SELECT count(*) FROM push_configs WHERE task_id = '" + taskId + "' AND sealed_with = 'k0'"),
                "the unreadable ones are left for a later pass");
        db.execute("DELETE FROM push_configs WHERE task_id = '" + taskId + "' AND sealed_with = 'k0'");
    }
}
