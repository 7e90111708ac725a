package dev.a2atasks.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.stream.LongStream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.a2atasks.proto.history.v1.Direction;
import dev.a2atasks.proto.history.v1.ListTaskMessagesRequest;
import dev.a2atasks.proto.history.v1.ListTaskMessagesResponse;
import dev.a2atasks.proto.history.v1.TaskMessage;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.HistoryApi;
import dev.a2atasks.support.PushApi.Said;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;

/**
 * ListTaskMessages (history-paging extension) on every binding: a 10,000-message transcript read
 * whole in both directions while the page size changes, starting points, the opt-in, scoping and
 * bad input. The SQL each page runs is pinned by {@code TranscriptPlanTest}.
 */
@QuarkusTest
class TaskMessagesTest extends BindingTest {

    private static final String TENANT = "TaskMessagesTest";
    // Long enough for hundreds of pages of changing sizes; the plan at any depth is TranscriptPlanTest's
    // (EXPLAIN), and a 100,000-message transcript read whole is the bench's table b2.
    private static final int LONG = 10_000;
    private static final Instant BASE = Instant.parse("2026-07-01T00:00:00Z");

    private HistoryApi history;
    private String alice;
    private long longTaskPk;

    @BeforeAll
    void seed() {
        history = new HistoryApi(root);
        db.clearTenant(TENANT);
        longTaskPk = db.insertTask(TENANT, "alice", "long", "ctx-long", "TASK_STATE_WORKING", BASE);
        db.insertMessages(longTaskPk, LONG);
        long shortPk = db.insertTask(TENANT, "alice", "short", "ctx-short", "TASK_STATE_COMPLETED", BASE.plusSeconds(1));
        db.insertMessages(shortPk, 5);
        db.insertTask(TENANT, "alice", "empty", "", "TASK_STATE_SUBMITTED", BASE.plusSeconds(2));
        db.execute("ANALYZE messages");
        alice = Tokens.valid(TENANT, "alice");
    }

    private static ListTaskMessagesRequest.Builder request(String taskId) {
        return ListTaskMessagesRequest.newBuilder().setTaskId(taskId);
    }

    private ListTaskMessagesResponse page(String binding, ListTaskMessagesRequest.Builder request) {
        return history.list(binding, alice, request.build()).ok();
    }

    private static List<Long> seqs(ListTaskMessagesResponse page) {
        return page.getMessagesList().stream().map(TaskMessage::getSeq).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindings")
    void tenThousandMessagesReadWholeInBothDirectionsWhileThePageSizeChanges(String binding) {
        int[] sizes = { 100, 37, 100, 1, 64, 100, 99 };
        for (Direction direction : List.of(Direction.DIRECTION_OLDEST_FIRST, Direction.DIRECTION_NEWEST_FIRST)) {
            List<Long> read = new ArrayList<>(LONG);
            String token = "";
            int pages = 0;
            do {
                int size = sizes[pages % sizes.length];
                ListTaskMessagesRequest.Builder request = request("long").setDirection(direction).setPageSize(size);
                if (!token.isEmpty()) {
                    request.setPageToken(token);
                }
                ListTaskMessagesResponse page = page(binding, request);
                assertTrue(page.getMessagesCount() <= size);
                assertTrue(page.getMessagesCount() == size || page.getNextPageToken().isEmpty(), "only the last page is short");
                for (TaskMessage m : page.getMessagesList()) {
                    assertEquals("m" + m.getSeq(), m.getMessage().getMessageId());
                    assertEquals("long", m.getMessage().getTaskId());
                    assertEquals("ctx-long", m.getMessage().getContextId());
                    read.add(m.getSeq());
                }
                token = page.getNextPageToken();
                pages++;
            } while (!token.isEmpty());
            List<Long> expected = direction == Direction.DIRECTION_OLDEST_FIRST
                    ? LongStream.range(0, LONG).boxed().toList()
                    : LongStream.range(0, LONG).map(i -> LONG - 1 - i).boxed().toList();
            assertEquals(LONG, read.size(), direction + ": no gap, no duplicate");
            assertEquals(expected, read, direction + ": exact order");
            assertEquals(LONG, new HashSet<>(read).size());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindings")
    void aWalkStartsWhereItIsTold(String binding) {
        // Newest first is the default; a whole short transcript fits one page and ends the walk.
        ListTaskMessagesResponse whole = page(binding, request("short"));
        assertEquals(List.of(4L, 3L, 2L, 1L, 0L), seqs(whole));
        assertEquals("", whole.getNextPageToken());
        assertEquals("message 4", whole.getMessages(0).getMessage().getParts(0).getText());
        // The tenant-prefixed form (HTTP+JSON /{tenant}/tasks/{id}/messages) reads the caller's own tenant alike.
        assertEquals(whole, page(binding, request("short").setTenant(TENANT)));

        // From a seq, that message included, either way.
        long middle = LONG / 2;
        assertEquals(List.of(middle, middle + 1, middle + 2),
                seqs(page(binding, request("long").setDirection(Direction.DIRECTION_OLDEST_FIRST).setStartSeq(middle).setPageSize(3))));
        assertEquals(List.of(middle, middle - 1),
                seqs(page(binding, request("long").setDirection(Direction.DIRECTION_NEWEST_FIRST).setStartSeq(middle).setPageSize(2))));
        // From a message id; and the walk goes on from there with its token.
        ListTaskMessagesResponse first = page(binding, request("long").setStartMessageId("m777").setPageSize(2));
        assertEquals(List.of(777L, 776L), seqs(first));
        ListTaskMessagesResponse second = page(binding, request("long").setStartMessageId("m777").setPageSize(2)
                .setPageToken(first.getNextPageToken()));
        assertEquals(List.of(775L, 774L), seqs(second));
        // Past either end: nothing left, and the walk is over.
        ListTaskMessagesResponse past = page(binding, request("short").setDirection(Direction.DIRECTION_OLDEST_FIRST).setStartSeq(5));
        assertEquals(List.of(), seqs(past));
        assertEquals("", past.getNextPageToken());
        assertEquals(List.of(4L, 3L), seqs(page(binding, request("short").setStartSeq(Long.MAX_VALUE).setPageSize(2))));
        // A task without messages is an empty page, not an error.
        ListTaskMessagesResponse none = page(binding, request("empty"));
        assertEquals(0, none.getMessagesCount());
        assertEquals("", none.getNextPageToken());
        // A message id the task does not have.
        Said unknown = history.list(binding, alice, request("short").setStartMessageId("m777").build()).failed();
        assertEquals("INVALID_ARGUMENT", unknown.status());
        assertEquals(List.of("startMessageId"), unknown.fields());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindings")
    void withoutTheOptInTheOperationIsRefusedAndNothingElseChanges(String binding) {
        // Whatever else the request says: a task, no task, a bad parameter.
        for (ListTaskMessagesRequest.Builder request : List.of(request("short"), request("no-such-task"),
                request("short").setPageSize(0), request("short").setPageToken("forged"))) {
            Said refused = history.list(binding, alice, request.build(), false).failed();
            assertEquals("FAILED_PRECONDITION", refused.status(), refused.toString());
            assertEquals("EXTENSION_SUPPORT_REQUIRED", refused.reason(), refused.toString());
            assertTrue(refused.message().contains(dev.a2atasks.client.HistoryPaging.URI), refused.message());
        }
        // GetTask answers the same with or without the extension declared.
        dev.a2atasks.support.TaskApi api = api(binding);
        dev.a2atasks.proto.v1.Task plain = api.get(alice, null, "long", "3");
        assertEquals(List.of("m" + (LONG - 3), "m" + (LONG - 2), "m" + (LONG - 1)), plain.getHistoryList().stream()
                .map(dev.a2atasks.proto.v1.Message::getMessageId).toList());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindings")
    void someoneElsesTaskIsNotFoundWithTheSameBytesAsNoTask(String binding) {
        db.execute("DELETE FROM tasks WHERE tenant = '" + TENANT + "' AND id = 'hers'");
        long pk = db.insertTask(TENANT, "carol", "hers", "", "TASK_STATE_WORKING", BASE);
        db.insertMessages(pk, 3);
        Said foreign = history.list(binding, alice, request("hers").build()).failed();
        Said otherTenant = history.list(binding, Tokens.valid(TENANT + "-other", "carol"),
                request("hers").setTenant(TENANT).build()).failed();
        Said byMessageId = history.list(binding, alice, request("hers").setStartMessageId("m1").build()).failed();
        db.execute("DELETE FROM tasks WHERE pk = " + pk);
        Said missing = history.list(binding, alice, request("hers").build()).failed();
        assertEquals("NOT_FOUND", missing.status());
        assertEquals("TASK_NOT_FOUND", missing.reason());
        assertEquals(missing.raw(), foreign.raw());
        assertEquals(missing.raw(), otherTenant.raw());
        assertEquals(missing.raw(), byMessageId.raw());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindings")
    void badRequestsNameTheirField(String binding) {
        List<Object[]> cases = List.of(
                new Object[] { request("short").setPageSize(0), "pageSize" },
                new Object[] { request("short").setPageSize(101), "pageSize" },
                new Object[] { request("short").setPageSize(-1), "pageSize" },
                new Object[] { request("short").setStartSeq(-1), "startSeq" },
                new Object[] { request(""), "taskId" },
                new Object[] { request("a\u0000b"), "taskId" },
                new Object[] { request("x".repeat(1025)), "taskId" },
                new Object[] { request("short").setStartMessageId("m\u0000"), "startMessageId" },
                new Object[] { request("short").setPageToken("not-a-token"), "pageToken" },
                new Object[] { request("short").setPageToken("A".repeat(3000)), "pageToken" },
                new Object[] { request("short").setDirectionValue(7), "direction" });
        for (Object[] c : cases) {
            ListTaskMessagesRequest.Builder request = (ListTaskMessagesRequest.Builder) c[0];
            if (!binding.equals("GRPC") && request.getDirectionValue() == 7) {
                continue; // ProtoJSON cannot print an unknown enum number by name; the text forms are below
            }
            if (binding.equals("HTTP+JSON") && request.getTaskId().isEmpty()) {
                continue; // no route has an empty path segment; the other bindings carry the empty field
            }
            Said refused = history.list(binding, alice, request.build()).failed();
            assertEquals("INVALID_ARGUMENT", refused.status(), c[1] + ": " + refused);
            assertEquals(List.of((String) c[1]), refused.fields(), refused.toString());
        }
    }

    @Test
    void textFormsAreJudgedByTheSameGrammarOnBothJsonBindings() {
        String[][] cases = {
                { "pageSize=abc", "pageSize" }, { "pageSize=1e3", "pageSize" }, { "pageSize=99999999999", "pageSize" },
                { "direction=SIDEWAYS", "direction" }, { "direction=7", "direction" }, { "startSeq=x", "startSeq" },
                { "startSeq=99999999999999999999", "startSeq" }, { "startSeq=1&startMessageId=m1", "startMessageId" } };
        for (String[] c : cases) {
            var rest = io.restassured.RestAssured.given().header("A2A-Version", "1.0").header("Authorization", "Bearer " + alice)
                    .header("A2A-Extensions", dev.a2atasks.client.HistoryPaging.URI).urlEncodingEnabled(false)
                    .get("/tasks/short/messages?" + c[0]);
            assertEquals(400, rest.statusCode(), c[0] + " " + rest.asString());
            assertEquals(List.of(c[1]), rest.jsonPath().getList("error.details.find { it.'@type'.endsWith('BadRequest') }.fieldViolations.field"));
            StringBuilder params = new StringBuilder("{\"taskId\":\"short\"");
            for (String pair : c[0].split("&")) {
                String[] kv = pair.split("=");
                params.append(",\"").append(kv[0]).append("\":\"").append(kv[1]).append('"');
            }
            var rpc = io.restassured.RestAssured.given().contentType("application/json").header("A2A-Version", "1.0")
                    .header("Authorization", "Bearer " + alice).header("A2A-Extensions", dev.a2atasks.client.HistoryPaging.URI)
                    .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ListTaskMessages\",\"params\":" + params + "}}").post("/");
            assertEquals(-32602, rpc.jsonPath().getInt("error.code"), c[0] + " " + rpc.asString());
            assertEquals(rest.jsonPath().getString("error.message"), rpc.jsonPath().getString("error.message"), c[0]);
        }
        // Numbers as JSON numbers, and enum names, are read the same as text.
        var rpc = io.restassured.RestAssured.given().contentType("application/json").header("A2A-Version", "1.0")
                .header("Authorization", "Bearer " + alice).header("A2A-Extensions", "https://example.com/other/v1, "
                        + dev.a2atasks.client.HistoryPaging.URI)
                .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ListTaskMessages\",\"params\":{\"task_id\":\"short\","
                        + "\"pageSize\":2,\"direction\":\"DIRECTION_OLDEST_FIRST\",\"startSeq\":1}}")
                .post("/");
        assertEquals(List.of("1", "2"), rpc.jsonPath().getList("result.messages.seq"), rpc.asString());
        assertEquals("m1", rpc.jsonPath().getString("result.messages[0].message.messageId"));
    }

    /**
     * Parity: the same request gets the same page, or the same error (status, message, ErrorInfo
     * reason, fields), on gRPC, HTTP+JSON and JSON-RPC.
     */
    @Test
    void everyBindingGivesTheSameAnswerOrTheSameError() {
        List<ListTaskMessagesRequest.Builder> answered = List.of(request("short"), request("empty"),
                request("long").setDirection(Direction.DIRECTION_OLDEST_FIRST).setStartSeq(10).setPageSize(3),
                request("long").setStartMessageId("m500").setPageSize(2));
        for (ListTaskMessagesRequest.Builder request : answered) {
            List<ListTaskMessagesResponse> pages = bindings().map(b -> page(b, request)).toList();
            for (ListTaskMessagesResponse page : pages) {
                assertEquals(pages.get(0).getMessagesList(), page.getMessagesList(), request.toString());
                assertEquals(pages.get(0).getNextPageToken().isEmpty(), page.getNextPageToken().isEmpty(), request.toString());
            }
        }
        List<Object[]> refused = List.of(
                new Object[] { request("short"), false }, new Object[] { request("no-such-task"), true },
                new Object[] { request("short").setPageSize(0), true }, new Object[] { request("short").setStartSeq(-1), true },
                new Object[] { request("short").setPageToken("forged"), true },
                new Object[] { request("short").setStartMessageId("m999"), true },
                new Object[] { request("x".repeat(1025)), true });
        for (Object[] c : refused) {
            ListTaskMessagesRequest request = ((ListTaskMessagesRequest.Builder) c[0]).build();
            List<List<Object>> errors = bindings().map(b -> {
                Said said = history.list(b, alice, request, (Boolean) c[1]).failed();
                return List.<Object>of(said.status(), said.message(), String.valueOf(said.reason()), said.fields());
            }).toList();
            assertEquals(1, errors.stream().distinct().count(), request + ": " + errors);
        }
    }
}
