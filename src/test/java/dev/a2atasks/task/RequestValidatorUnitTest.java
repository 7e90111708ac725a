package dev.a2atasks.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.a2atasks.error.A2AException;
import dev.a2atasks.error.FieldViolation;
import dev.a2atasks.history.HistoryConfig;

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
    });

    @Test
    void defaultsAndCaps() {
        ListTasksQuery query = validator.listTasks(new ListTasksParams(null, null, null, null, null, null, null, null));
        assertEquals(new ListTasksQuery("", null, null, 50, null, 0, null, false), query);
        assertEquals(100, validator.listTasks(new ListTasksParams(null, null, null, null, null, "2147483647", null, null)).historyLength());
        assertEquals(20, validator.getTask(new GetTaskParams(null, "t", null)).historyLength());
        assertEquals(Instant.parse("2026-01-01T00:00:00.000002Z"), validator.listTasks(new ListTasksParams(null, null, null, null, null,
                null, "2026-01-01T00:00:00.0000011Z", null)).statusTimestampAfter(), "rounded up to the store's microseconds");
        assertEquals("TASK_STATE_WORKING", validator.listTasks(new ListTasksParams(null, null, "2", null, null, null, null, null)).status());
    }

    @Test
    void everyBadFieldIsNamedOnce() {
        A2AException e = assertThrows(A2AException.class, () -> validator.listTasks(new ListTasksParams("t\u0000", "\uD800", "NOPE", "+5",
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
        A2AException e = assertThrows(A2AException.class, () -> validator.getTask(new GetTaskParams(null, "", "-1")));
        assertEquals(List.of(new FieldViolation("id", "id is required"),
                new FieldViolation("historyLength", "historyLength must not be negative, got -1")), e.violations());
    }
}
