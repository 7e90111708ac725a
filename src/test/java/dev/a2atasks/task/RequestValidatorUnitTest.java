package dev.a2atasks.task;

import dev.a2atasks.task.read.ListTasksQuery;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import org.junit.jupiter.api.Test;

import dev.a2atasks.error.A2AException;
import dev.a2atasks.error.FieldViolation;
import dev.a2atasks.task.HistoryConfig;
import dev.a2atasks.proto.v1.AuthenticationInfo;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Part;
import dev.a2atasks.proto.v1.Role;
import dev.a2atasks.proto.v1.SendMessageConfiguration;
import dev.a2atasks.proto.v1.SendMessageRequest;
import dev.a2atasks.proto.v1.TaskPushNotificationConfig;
import dev.a2atasks.proto.v1.TaskState;

/** The shared validator, without Quarkus: defaults, caps, and every refusal naming its field. */
class RequestValidatorUnitTest {

    private final RequestValidator validator = new RequestValidator(new HistoryConfig() {
        @Override
        public int defaultListLength() {
            return 0;
        }

        @Override
        public int defaultGetLength() {
            return 20;
        }

        @Override
        public int maxLength() {
            return 100;
        }
    }, 100_000);

    @Test
    void defaultsAndCaps() {
        ListTasksQuery query = validator.listTasks(ListTasksParams.none());
        assertEquals(new ListTasksQuery("", null, null, 50, null, 0, null, false), query);
        assertEquals(query, validator.listTasks(TextParams.listTasks("", "", "", "", "", "", "", "")), "empty text is absent");
        assertEquals(100, validator.listTasks(TextParams.listTasks(null, null, null, null, null, "2147483647", null, null)).historyLength());
        assertEquals(20, validator.getTask(TextParams.getTask(null, "t", null)).historyLength());
        assertEquals(Instant.parse("2026-01-01T00:00:00.000002Z"), validator.listTasks(TextParams.listTasks(null, null, null, null, null,
                null, "2026-01-01T00:00:00.0000011Z", null)).statusTimestampAfter(), "rounded up to the store's microseconds");
        assertEquals(TaskState.TASK_STATE_WORKING, validator.listTasks(TextParams.listTasks(null, null, "2", null, null, null, null, null)).status());
    }

    @Test
    void everyBadFieldIsNamedOnce() {
        A2AException e = assertThrows(A2AException.class, () -> validator.listTasks(TextParams.listTasks("t\u0000", "\uD800", "NOPE", "+5",
                "x".repeat(3000), "2147483648", "yesterday", "maybe")));
        assertEquals(List.of(
                new FieldViolation("tenant", "tenant must not contain NUL characters"),
                new FieldViolation("contextId", "contextId must be valid UTF-8 text"),
                new FieldViolation("status", "status must be one of TASK_STATE_SUBMITTED, TASK_STATE_WORKING, TASK_STATE_COMPLETED,"
                        + " TASK_STATE_FAILED, TASK_STATE_CANCELED, TASK_STATE_INPUT_REQUIRED, TASK_STATE_REJECTED, TASK_STATE_AUTH_REQUIRED"),
                new FieldViolation("pageSize", "pageSize must be an integer between 1 and 100"),
                new FieldViolation("pageToken", "pageToken is malformed"),
                new FieldViolation("historyLength", "historyLength must be at most 2147483647, got 2147483648"),
                new FieldViolation("statusTimestampAfter", "statusTimestampAfter must be an RFC 3339 timestamp such as 2026-01-31T12:00:00Z"),
                new FieldViolation("includeArtifacts", "includeArtifacts must be true or false")), e.violations());
    }

    @Test
    void getTaskNeedsAnId() {
        A2AException e = assertThrows(A2AException.class, () -> validator.getTask(TextParams.getTask(null, "", "-1")));
        assertEquals(List.of(new FieldViolation("id", "id is required"),
                new FieldViolation("historyLength", "historyLength must not be negative, got -1")), e.violations());
    }

    @Test
    void typedValuesGetTheSameRulesAsText() {
        // What gRPC hands over: typed values, an enum number this build does not know, a negative int.
        ListTasksParams typed = new ListTasksParams("", "", Optional.of(TaskState.UNRECOGNIZED), OptionalInt.of(0), "",
                OptionalInt.of(-3), Optional.empty(), Optional.of(true), List.of());
        A2AException e = assertThrows(A2AException.class, () -> validator.listTasks(typed));
        A2AException fromText = assertThrows(A2AException.class,
                () -> validator.listTasks(TextParams.listTasks(null, null, "NOPE", "0", null, "-3", null, "true")));
        assertEquals(fromText.violations(), e.violations());
        assertEquals(List.of("status", "pageSize", "historyLength"), e.violations().stream().map(FieldViolation::field).toList());
        assertEquals(null, validator.listTasks(new ListTasksParams("", "", Optional.of(TaskState.TASK_STATE_UNSPECIFIED),
                OptionalInt.empty(), "", OptionalInt.empty(), Optional.empty(), Optional.empty(), List.of())).status(),
                "the proto default is no filter");
    }

    @Test
    void undecodableValuesAreReportedInFieldOrder() {
        ListTasksParams params = new ListTasksParams("t\u0000", null, Optional.empty(), OptionalInt.of(500), null,
                OptionalInt.empty(), Optional.empty(), Optional.empty(),
                List.of(new FieldViolation("statusTimestampAfter", "statusTimestampAfter is broken"),
                        new FieldViolation("somethingElse", "somethingElse is broken")));
        A2AException e = assertThrows(A2AException.class, () -> validator.listTasks(params));
        assertEquals(List.of("tenant", "pageSize", "statusTimestampAfter", "somethingElse"),
                e.violations().stream().map(FieldViolation::field).toList());
    }

    @Test
    void aWebhookRegistrationIsAnHttpUrlWithHeaderSafeSecrets() {
        PushConfigCommand ok = validator.pushConfig(TaskPushNotificationConfig.newBuilder().setTaskId("t").setUrl("HTTPS://hooks.example:8443/a?b=c")
                .setToken("tok en").setAuthentication(AuthenticationInfo.newBuilder().setScheme("Bearer").setCredentials("abc.def-ghi")).build());
        assertEquals("hooks.example", ok.url().getHost());
        assertEquals(null, ok.id(), "the service assigns one");
        assertEquals(65535, validator.pushConfig(TaskPushNotificationConfig.newBuilder().setTaskId("t").setUrl("http://h:65535/").build())
                .url().getPort());
        assertFalse(ok.toString().contains("abc.def-ghi") || ok.toString().contains("tok en"), ok.toString());

        A2AException e = assertThrows(A2AException.class, () -> validator.pushConfig(TaskPushNotificationConfig.newBuilder()
                .setUrl("ftp://x/").setToken(" lead").setAuthentication(AuthenticationInfo.newBuilder().setCredentials("c")).build()));
        assertEquals(List.of("taskId", "url", "authentication.scheme", "token"), e.violations().stream().map(FieldViolation::field).toList());
        assertEquals("url must use http or https", e.violations().get(1).description());
        for (String url : new String[] { "http:relative", "//no-scheme", "http://", "https://u@h/", "http://h/\u0007", "http://h:0/",
                "https://h:99999/", "http://h:65536/" }) {
            A2AException bad = assertThrows(A2AException.class,
                    () -> validator.pushConfig(TaskPushNotificationConfig.newBuilder().setTaskId("t").setUrl(url).build()), url);
            assertEquals(List.of("url"), bad.violations().stream().map(FieldViolation::field).toList(), url);
        }
        A2AException inMessage = assertThrows(A2AException.class, () -> validator.sendMessage(SendMessageRequest.newBuilder()
                .setMessage(Message.newBuilder().setMessageId("m").setRole(Role.ROLE_USER).addParts(Part.newBuilder().setText("hi")))
                .setConfiguration(SendMessageConfiguration.newBuilder().setTaskPushNotificationConfig(
                        TaskPushNotificationConfig.newBuilder().setUrl("gopher://x/")))
                .build()));
        assertEquals(List.of("configuration.taskPushNotificationConfig.url"), inMessage.violations().stream().map(FieldViolation::field).toList());
    }

    @Test
    void pushConfigListsPageLikeListTasks() {
        assertEquals(new PushConfigQuery("", "t", null, 50, null), validator.listPushConfigs("", "t", 0, ""));
        assertEquals(100, validator.listPushConfigs("", "t", 100, "").pageSize());
        A2AException e = assertThrows(A2AException.class, () -> validator.listPushConfigs("", "", 101, "x".repeat(3000)));
        assertEquals(List.of("taskId", "pageSize", "pageToken"), e.violations().stream().map(FieldViolation::field).toList());
        A2AException key = assertThrows(A2AException.class, () -> validator.pushConfigKey("", "t", ""));
        assertEquals("id is required", key.violations().get(0).description());
    }

    private static List<String> fields(Runnable call) {
        A2AException e = assertThrows(A2AException.class, call::run);
        return e.violations().stream().map(FieldViolation::field).toList();
    }

    @Test
    void listTaskMessagesDefaultsAndStartingPoints() {
        TranscriptQuery plain = validator.listTaskMessages(TextParams.listTaskMessages(null, "t", null, null, null, null, null));
        assertEquals(new TranscriptQuery("", "t", 50, null, true, null, null), plain);
        assertEquals(plain, validator.listTaskMessages(TextParams.listTaskMessages("", "t", "", "", "", "", "")), "empty text is absent");
        TranscriptQuery up = validator.listTaskMessages(TextParams.listTaskMessages("acme", "t", "100", null, "DIRECTION_OLDEST_FIRST",
                "9223372036854775807", null));
        assertEquals(new TranscriptQuery("acme", "t", 100, null, false, Long.MAX_VALUE, null), up);
        assertEquals(false, validator.listTaskMessages(TextParams.listTaskMessages(null, "t", null, null, "2", null, null)).newestFirst(),
                "a direction by number, as ProtoJSON allows");
        assertEquals("m1", validator.listTaskMessages(TextParams.listTaskMessages(null, "t", null, null, null, null, "m1")).startMessageId());
        // gRPC's typed request meets the same rules.
        assertEquals(up, validator.listTaskMessages(TranscriptParams.of(dev.a2atasks.proto.history.v1.ListTaskMessagesRequest.newBuilder()
                .setTenant("acme").setTaskId("t").setPageSize(100).setDirection(dev.a2atasks.proto.history.v1.Direction.DIRECTION_OLDEST_FIRST)
                .setStartSeq(Long.MAX_VALUE).build())));
    }

    @Test
    void listTaskMessagesNamesEveryBadFieldInOrder() {
        assertEquals(List.of("taskId", "pageSize", "pageToken", "direction", "startSeq"),
                fields(() -> validator.listTaskMessages(TextParams.listTaskMessages(null, "", "0", "x".repeat(3000), "UP", "-1", null))));
        assertEquals(List.of("pageSize", "startSeq"),
                fields(() -> validator.listTaskMessages(TextParams.listTaskMessages(null, "t", "abc", null, null, "12345678901234567890", null))));
        assertEquals(List.of("startMessageId"),
                fields(() -> validator.listTaskMessages(TextParams.listTaskMessages(null, "t", null, null, null, "1", "m1"))));
        assertEquals(List.of("tenant", "taskId", "startMessageId"),
                fields(() -> validator.listTaskMessages(TextParams.listTaskMessages("a\u0000", "\uD800", null, null, null, null, "m\u0000"))));
        assertEquals(List.of("pageSize"), fields(() -> validator.listTaskMessages(TextParams.listTaskMessages(null, "t", "101", null, null, null, null))));
        assertEquals(List.of("direction"), fields(() -> validator.listTaskMessages(TranscriptParams.of(
                dev.a2atasks.proto.history.v1.ListTaskMessagesRequest.newBuilder().setTaskId("t").setDirectionValue(9).build()))));
    }
}
