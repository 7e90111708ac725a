package dev.a2atasks.binding;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

import java.time.Instant;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.a2atasks.support.Db;
import dev.a2atasks.support.Tokens;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;

/** Malformed JSON-RPC gets the JSON-RPC 2.0 error it deserves, with the id echoed where there is one. Never a 500. */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JsonRpcEdgeCasesTest {

    private static final String TENANT = "JsonRpcEdgeCasesTest";

    @Inject
    AgroalDataSource dataSource;

    @BeforeAll
    void oneTask() {
        Db db = new Db(dataSource);
        db.clearTenant(TENANT);
        db.insertTask(TENANT, "alice", "t1", "ctx-1", "TASK_STATE_WORKING", Instant.parse("2026-01-01T00:00:00Z"));
    }

    private static RequestSpecification rpc() {
        return given().contentType("application/json").header("A2A-Version", "1.0")
                .header("Authorization", "Bearer " + Tokens.valid(TENANT, "alice"));
    }

    @Test
    void unparsableJson() {
        rpc().body("{").post("/").then().statusCode(200)
                .body("jsonrpc", equalTo("2.0")).body("id", nullValue())
                .body("error.code", equalTo(-32700)).body("error.message", startsWith("Request body is not valid JSON: "));
    }

    @Test
    void emptyBatchAndBatch() {
        rpc().body("[]").post("/").then().statusCode(200)
                .body("id", nullValue()).body("error.code", equalTo(-32600)).body("error.message", equalTo("Empty batch"));
        rpc().body("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ListTasks\"}]").post("/").then().statusCode(200)
                .body("error.code", equalTo(-32600)).body("error.message", equalTo("Batch requests are not supported"));
    }

    @Test
    void wrongEnvelope() {
        rpc().body("{\"jsonrpc\":\"1.0\",\"id\":7,\"method\":\"ListTasks\"}").post("/").then().statusCode(200)
                .body("id", equalTo(7)).body("error.code", equalTo(-32600)).body("error.message", equalTo("jsonrpc must be \"2.0\""));
        rpc().body("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":42}").post("/").then().statusCode(200)
                .body("id", equalTo("a")).body("error.code", equalTo(-32600)).body("error.message", equalTo("method must be a string"));
        rpc().body("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ListTasks\",\"params\":\"x\"}").post("/").then().statusCode(200)
                .body("id", equalTo(8)).body("error.code", equalTo(-32600)).body("error.message", equalTo("params must be an object"));
        rpc().body("{\"jsonrpc\":\"2.0\",\"id\":{\"x\":1},\"method\":\"ListTasks\"}").post("/").then().statusCode(200)
                .body("id", nullValue()).body("error.code", equalTo(-32600))
                .body("error.message", equalTo("id must be a string, a number or null"));
        rpc().body("42").post("/").then().statusCode(200)
                .body("error.code", equalTo(-32600)).body("error.message", equalTo("Request must be a JSON object"));
    }

    @Test
    void paramsAsAnArrayAreInvalidParams() {
        rpc().body("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ListTasks\",\"params\":[1]}").post("/").then().statusCode(200)
                .body("id", equalTo(9)).body("error.code", equalTo(-32602))
                .body("error.data[0].'@type'", equalTo("type.googleapis.com/google.rpc.BadRequest"))
                .body("error.data[0].fieldViolations[0].field", equalTo("params"));
    }

    @Test
    void unknownAndUnimplementedMethods() {
        rpc().body("{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tasks/list\"}").post("/").then().statusCode(200)
                .body("id", equalTo(10)).body("error.code", equalTo(-32601)).body("error.message", equalTo("Method not found: tasks/list"));
        rpc().body("{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"GetExtendedAgentCard\",\"params\":{}}").post("/").then().statusCode(200)
                .body("id", equalTo(11)).body("error.code", equalTo(-32004))
                .body("error.message", equalTo("GetExtendedAgentCard is not supported by this server"))
                .body("error.data[0].reason", equalTo("UNSUPPORTED_OPERATION"))
                .body("error.data[0].domain", equalTo("a2a-protocol.org"));
    }

    @Test
    void oversizedBody() {
        String big = "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"ListTasks\",\"params\":{\"contextId\":\"" + "x".repeat(1024 * 1024) + "\"}}";
        rpc().body(big).post("/").then().statusCode(413)
                .body("error.code", equalTo(-32600)).body("error.message", equalTo("Request body is larger than 1048576 bytes"));
        String justUnder = "{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"ListTasks\",\"params\":{\"contextId\":\"" + "x".repeat(1000 * 1000) + "\"}}";
        rpc().body(justUnder).post("/").then().statusCode(200)
                .body("id", equalTo(13)).body("error.code", equalTo(-32602))
                .body("error.message", equalTo("contextId must be at most 1024 characters"));
    }

    @Test
    void wrongContentType() {
        rpc().contentType("text/plain").body("{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"ListTasks\"}").post("/").then().statusCode(200)
                .body("error.code", equalTo(-32600)).body("error.message", startsWith("Content-Type must be application/json"));
    }

    @Test
    void notificationsAreNotAnswered() {
        rpc().body("{\"jsonrpc\":\"2.0\",\"method\":\"ListTasks\"}").post("/").then().statusCode(204).body(equalTo(""));
    }

    @Test
    void protoFieldNamesAndJsonTypes() {
        rpc().body("{\"jsonrpc\":\"2.0\",\"id\":\"q1\",\"method\":\"ListTasks\",\"params\":"
                + "{\"context_id\":\"ctx-1\",\"page_size\":\"5\",\"history_length\":0,\"include_artifacts\":true,\"status\":2}}")
                .post("/").then().statusCode(200)
                .body("id", equalTo("q1")).body("result.tasks[0].id", equalTo("t1"))
                .body("result.tasks[0].artifacts.size()", equalTo(0))
                .body("result.pageSize", equalTo(5)).body("result.totalSize", equalTo(1)).body("result.nextPageToken", equalTo(""));
        rpc().body("{\"jsonrpc\":\"2.0\",\"id\":15,\"method\":\"ListTasks\",\"params\":{\"contextId\":7}}").post("/").then()
                .body("error.code", equalTo(-32602)).body("error.message", equalTo("contextId must be a string"));
        rpc().body("{\"jsonrpc\":\"2.0\",\"id\":16,\"method\":\"ListTasks\",\"params\":{\"pageSize\":2.5}}").post("/").then()
                .body("error.code", equalTo(-32602)).body("error.message", equalTo("pageSize must be an integer between 1 and 100"));
        rpc().body("{\"jsonrpc\":\"2.0\",\"id\":17,\"method\":\"GetTask\",\"params\":{\"id\":\"t1\",\"history_length\":1}}")
                .post("/").then().statusCode(200).body("result.id", equalTo("t1")).body("result.contextId", equalTo("ctx-1"));
        rpc().body("{\"jsonrpc\":\"2.0\",\"id\":18,\"method\":\"GetTask\",\"params\":{\"id\":\"nope\"}}").post("/").then()
                .statusCode(200).body("error.code", equalTo(-32001)).body("error.message", equalTo("Task not found: nope"))
                .body("error.data[0].reason", equalTo("TASK_NOT_FOUND")).body("error.data[0].metadata.taskId", equalTo("nope"));
    }

    @Test
    void credentialsAreCheckedAndRefusedWith401() {
        given().contentType("application/json").header("A2A-Version", "1.0")
                .body("{\"jsonrpc\":\"2.0\",\"id\":19,\"method\":\"ListTasks\"}").post("/").then().statusCode(401)
                .header("WWW-Authenticate", "Bearer")
                .body("id", equalTo(19)).body("error.code", equalTo(-32000))
                .body("error.message", startsWith("Authentication required"));
    }
}
