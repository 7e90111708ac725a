package dev.a2atasks.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.a2atasks.support.ApiError;
import dev.a2atasks.support.ApiException;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.TaskApi;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.json.JsonValue;

/**
 * Identity claims are taken exactly as the token carries them. A tenant written {@code "t1"}
 * (quotes included) is a different tenant from {@code t1}; a claim that is not a JSON string, or
 * that holds control characters, names nobody and is refused. No case sees another scope's row,
 * on any binding.
 */
@QuarkusTest
class TenantClaimTest extends BindingTest {

    private static final Instant AT = Instant.parse("2026-03-01T00:00:00Z");
    private static final String NOT_A_STRING = "Bearer token claim 'tenant' (tenant) must be a JSON string";
    private static final String CONTROL = "Bearer token claim 'tenant' (tenant) must be text without control characters";
    private static final String NO_SUBJECT = CallerResolver.NO_SUBJECT;
    private static final String SUB_CONTROL = "Bearer token claim 'sub' (subject) must be text without control characters";

    @BeforeAll
    void rowsInSeveralScopes() {
        for (String tenant : List.of("t1", "\"t1\"", "", "\"\"")) {
            db.execute("DELETE FROM tasks WHERE tenant = '" + tenant.replace("'", "''") + "' AND owner IN ('alice', '\"alice\"')");
        }
        db.insertTask("t1", "alice", "t1-secret", "ctx", "TASK_STATE_WORKING", AT);
        db.insertTask("", "alice", "default-tenant-task", "ctx", "TASK_STATE_WORKING", AT);
    }

    /** name, tenant claim, sub claim, the task ids ListTasks must show (null = refused), the refusal's message. */
    static Stream<Arguments> matrix() {
        return Stream.of(
                Arguments.of("tenant \"t1\" with its quotes", "\"t1\"", "alice", List.of(), null),
                Arguments.of("tenant t1 + NUL", "t1\u0000", "alice", null, CONTROL),
                Arguments.of("tenant t1 + newline", "t1\n", "alice", null, CONTROL),
                Arguments.of("tenant t1 + DEL", "t1\u007f", "alice", null, CONTROL),
                Arguments.of("tenant \"\" with its quotes", "\"\"", "alice", List.of(), null),
                Arguments.of("tenant 1 (a number)", 1, "alice", null, NOT_A_STRING),
                Arguments.of("tenant [\"t1\"]", List.of("t1"), "alice", null, NOT_A_STRING),
                Arguments.of("tenant {\"t\":1}", Map.of("t", 1), "alice", null, NOT_A_STRING),
                Arguments.of("tenant null", JsonValue.NULL, "alice", null, "Bearer token has no 'tenant' (tenant) claim"),
                Arguments.of("tenant missing", Tokens.ABSENT, "alice", null, "Bearer token has no 'tenant' (tenant) claim"),
                Arguments.of("tenant empty: the default tenant", "", "alice", List.of("default-tenant-task"), null),
                Arguments.of("tenant t1 itself", "t1", "alice", List.of("t1-secret"), null),
                Arguments.of("sub \"alice\" with its quotes", "t1", "\"alice\"", List.of(), null),
                Arguments.of("sub alice + NUL", "t1", "alice\u0000", null, SUB_CONTROL),
                Arguments.of("sub 7 (a number)", "t1", 7, null, NO_SUBJECT),
                Arguments.of("sub missing", "t1", Tokens.ABSENT, null, NO_SUBJECT));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("matrix")
    void eachClaimIsTakenVerbatimOrRefused(String name, Object tenant, Object subject, List<String> visible, String refusal) {
        String bearer = Tokens.withIdentityClaims(tenant, subject);
        for (String binding : bindings().toList()) {
            TaskApi api = api(binding);
            if (visible != null) {
                assertEquals(visible, ids(api.list(bearer, Map.of())), name + " on " + binding);
                if (!visible.contains("t1-secret")) {
                    ApiException e = assertThrows(ApiException.class, () -> api.get(bearer, null, "t1-secret", null), binding);
                    assertEquals("NOT_FOUND", e.error().status(), name + " on " + binding);
                    // Naming t1 in the request does not help either: the tenant is the token's.
                    assertEquals(List.of(), ids(api.list(bearer, Map.of("tenant", "t1"))), name + " on " + binding);
                }
            } else {
                ApiException list = assertThrows(ApiException.class, () -> api.list(bearer, Map.of()), name + " on " + binding);
                assertEquals(new ApiError("UNAUTHENTICATED", refusal, List.of(), null), list.error(), name + " on " + binding);
                ApiException get = assertThrows(ApiException.class, () -> api.get(bearer, null, "t1-secret", null), binding);
                assertEquals(new ApiError("UNAUTHENTICATED", refusal, List.of(), null), get.error(), name + " on " + binding);
            }
        }
        assertTrue(bindings().count() == 3);
    }
}
