package dev.a2atasks.history;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.a2atasks.paging.TimeSource;
import dev.a2atasks.proto.history.v1.Direction;
import dev.a2atasks.proto.history.v1.ListTaskMessagesRequest;
import dev.a2atasks.proto.history.v1.ListTaskMessagesResponse;
import dev.a2atasks.proto.history.v1.TaskMessage;
import dev.a2atasks.support.ApiException;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.HistoryApi;
import dev.a2atasks.support.PushApi.Said;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusMock;
import io.quarkus.test.junit.QuarkusTest;

/**
 * ListTaskMessages tokens misused as ListTasks tokens are (PageTokenAbuseTest): another caller or
 * tenant, another task, direction or starting point, another operation's token, edited, cut,
 * garbage, expired. Each gets the same invalid-params refusal on pageToken as ListTasks gives, on
 * every binding; a changed pageSize continues the walk.
 */
@QuarkusTest
class TranscriptTokenAbuseTest extends BindingTest {

    private static final String TENANT = "TranscriptTokenAbuseTest";
    private static final String OTHER_WALK = "pageToken was issued for a different caller or filter set";

    private HistoryApi history;
    private String alice;

    @BeforeAll
    void seed() {
        history = new HistoryApi(root);
        db.clearTenant(TENANT);
        db.clearTenant(TENANT + "-other");
        for (String id : List.of("t1", "t2")) {
            long pk = db.insertTask(TENANT, "alice", id, "ctx", "TASK_STATE_WORKING", Instant.parse("2026-07-01T00:00:00Z"));
            db.insertMessages(pk, 10);
            long twin = db.insertTask(TENANT, "mallory", id, "ctx", "TASK_STATE_WORKING", Instant.parse("2026-07-01T00:00:00Z"));
            db.insertMessages(twin, 10);
            long other = db.insertTask(TENANT + "-other", "alice", id, "ctx", "TASK_STATE_WORKING", Instant.parse("2026-07-01T00:00:00Z"));
            db.insertMessages(other, 10);
        }
        alice = Tokens.valid(TENANT, "alice");
    }

    @AfterEach
    void realTime() {
        QuarkusMock.installMockForType(new TimeSource(), TimeSource.class);
    }

    private static ListTaskMessagesRequest.Builder walk() {
        return ListTaskMessagesRequest.newBuilder().setTaskId("t1").setPageSize(3);
    }

    private String secondPageToken(String binding) {
        String token = history.list(binding, alice, walk().build()).ok().getNextPageToken();
        assertEquals(false, token.isEmpty());
        return token;
    }

    private String refused(String binding, String bearer, ListTaskMessagesRequest.Builder request) {
        Said said = history.list(binding, bearer, request.build()).failed();
        assertEquals("INVALID_ARGUMENT", said.status(), said.toString());
        assertEquals(List.of("pageToken"), said.fields(), said.toString());
        return said.message();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindings")
    void anotherCallerTaskDirectionOrStartIsAnotherWalk(String binding) {
        String token = secondPageToken(binding);
        assertEquals(OTHER_WALK, refused(binding, Tokens.valid(TENANT, "mallory"), walk().setPageToken(token)), "another caller");
        assertEquals(OTHER_WALK, refused(binding, Tokens.valid(TENANT + "-other", "alice"), walk().setPageToken(token)), "another tenant");
        assertEquals(OTHER_WALK, refused(binding, alice, walk().setTaskId("t2").setPageToken(token)), "another task");
        assertEquals(OTHER_WALK, refused(binding, alice, walk().setDirection(Direction.DIRECTION_OLDEST_FIRST).setPageToken(token)),
                "another direction");
        assertEquals(OTHER_WALK, refused(binding, alice, walk().setStartSeq(9).setPageToken(token)), "another starting point");
        assertEquals(OTHER_WALK, refused(binding, alice, walk().setStartMessageId("m9").setPageToken(token)), "another starting point");
        // The walk itself goes on, at another page size too.
        ListTaskMessagesResponse next = history.list(binding, alice, walk().setPageSize(4).setPageToken(token).build()).ok();
        assertEquals(List.of(6L, 5L, 4L, 3L), next.getMessagesList().stream().map(TaskMessage::getSeq).toList());
        // Explicit newest first is the default direction: the same walk.
        assertEquals(List.of(6L, 5L, 4L), history.list(binding, alice, walk().setDirection(Direction.DIRECTION_NEWEST_FIRST)
                .setPageToken(token).build()).ok().getMessagesList().stream().map(TaskMessage::getSeq).toList());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindings")
    void anotherOperationsTokenIsRefusedBothWays(String binding) {
        db.execute("DELETE FROM tasks WHERE tenant = '" + TENANT + "' AND id LIKE 'list-%'");
        for (int i = 0; i < 3; i++) {
            db.insertTask(TENANT, "alice", "list-" + i, "", "TASK_STATE_WORKING", Instant.parse("2026-06-01T00:00:00Z").plusSeconds(i));
        }
        String listTasksToken = api(binding).list(alice, Map.of("pageSize", "1")).getNextPageToken();
        assertEquals(OTHER_WALK, refused(binding, alice, walk().setPageToken(listTasksToken)));
        String messagesToken = secondPageToken(binding);
        ApiException e = org.junit.jupiter.api.Assertions.assertThrows(ApiException.class,
                () -> api(binding).list(alice, Map.of("pageSize", "1", "pageToken", messagesToken)));
        assertEquals(OTHER_WALK, e.error().message());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindings")
    void editedCutOrGarbageTokens(String binding) {
        String token = secondPageToken(binding);
        byte[] raw = Base64.getUrlDecoder().decode(token);
        raw[raw.length - 20] ^= 0x01;
        assertEquals("pageToken signature is invalid",
                refused(binding, alice, walk().setPageToken(Base64.getUrlEncoder().withoutPadding().encodeToString(raw))));
        // Cut: a transcript token's payload has no variable part (no task id after the seq), so a
        // shorter one cannot even be a token.
        assertEquals("pageToken is malformed", refused(binding, alice, walk().setPageToken(token.substring(0, token.length() - 8))));
        assertEquals("pageToken is malformed", refused(binding, alice, walk().setPageToken(token.substring(0, 6))));
        assertEquals("pageToken is malformed", refused(binding, alice, walk().setPageToken("%%%")));
        assertEquals("pageToken is malformed", refused(binding, alice, walk().setPageToken("A".repeat(3000))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindings")
    void expiredTokens(String binding) {
        // The clock is set relative to when the token was issued, not to when each check runs: a slow
        // request between the two (a loaded CI machine) must not age the token past its TTL.
        Instant before = Instant.now();
        String token = secondPageToken(binding);
        Instant after = Instant.now();
        QuarkusMock.installMockForType(at(before.plus(Duration.ofSeconds(599))), TimeSource.class);
        assertEquals(3, history.list(binding, alice, walk().setPageToken(token).build()).ok().getMessagesCount(),
                "still valid just before the TTL");
        QuarkusMock.installMockForType(at(after.plus(Duration.ofSeconds(601))), TimeSource.class);
        assertEquals("pageToken expired; restart the listing without pageToken", refused(binding, alice, walk().setPageToken(token)));
    }

    private static TimeSource at(Instant fixed) {
        return new TimeSource() {
            @Override
            public Instant now() {
                return fixed;
            }
        };
    }
}
