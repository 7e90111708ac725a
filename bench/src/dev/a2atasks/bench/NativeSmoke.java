package dev.a2atasks.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.google.rpc.ErrorInfo;

import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;

/**
 * Black-box check of the native executable: started on a fresh embedded PostgreSQL (so its
 * migrations run too), it must answer ListTasks and GetTask on all three bindings, and its errors
 * (not found, invalid params, a URL that is not UTF-8) in the documented shape with their details.
 *
 * <pre>
 * bench/run --native-smoke [PATH]      (default target/a2a-tasks-0.1.0-SNAPSHOT-runner)
 * </pre>
 */
final class NativeSmoke {

    private final List<String> failures = new ArrayList<>();

    static void run(Path executable) throws Exception {
        new NativeSmoke().check(executable);
    }

    private void check(Path executable) throws Exception {
        try (Database db = Database.embedded()) {
            Map<String, String> env = Bench.serviceEnvironment(db);
            try (Service service = Service.startNative(executable, env, Bench.OUT.resolve("native-smoke.log"))) {
                System.out.printf("native: first answer %d ms after exec on a fresh database (migrations included), RSS %.0f MiB%n",
                        service.startupMillis, service.rssMiB());
                try (Connection c = DriverManager.getConnection(db.jdbcUrl()); Statement s = c.createStatement()) {
                    s.execute("INSERT INTO tasks (tenant, owner, id, context_id, state, status_ts) SELECT 'smoke', 'alice', 'task-' || g, 'ctx',"
                            + " 'TASK_STATE_WORKING', now() - g * interval '1 second' FROM generate_series(1, 3) g");
                }
                String bearer = Clients.token(Bench.PRIVATE_KEY, "smoke", "alice");
                String base = "http://127.0.0.1:" + service.port;
                HttpClient http = HttpClient.newHttpClient();
                expect("HTTP+JSON ListTasks", get(http, base + "/tasks", bearer), 200, "\"id\":\"task-1\"");
                expect("HTTP+JSON GetTask", get(http, base + "/tasks/task-2", bearer), 200, "\"id\":\"task-2\"");
                expect("HTTP+JSON TaskNotFound", get(http, base + "/tasks/nope", bearer), 404, "\"reason\":\"TASK_NOT_FOUND\"");
                expect("HTTP+JSON invalid params", get(http, base + "/tasks?pageSize=0", bearer), 400,
                        "\"field\":\"pageSize\"");
                expect("HTTP+JSON URL not UTF-8", get(http, base + "/tasks?contextId=%FF", bearer), 400,
                        "contextId must be valid UTF-8 text");
                expect("HTTP+JSON unknown path", get(http, base + "/nothing", bearer), 404, "\"status\":\"NOT_FOUND\"");
                expect("JSON-RPC ListTasks", jsonRpc(http, base, bearer, "ListTasks", "{}"), 200, "\"id\":\"task-3\"");
                expect("JSON-RPC TaskNotFound", jsonRpc(http, base, bearer, "GetTask", "{\"id\":\"nope\"}"), 200,
                        "\"code\":-32001");
                Clients clients = new Clients("127.0.0.1", service.port, null);
                try (Clients.Grpc grpc = clients.new Grpc(bearer)) {
                    int count = grpc.list(10, "").getTasksCount();
                    report("gRPC ListTasks", count == 3, count + " tasks");
                    report("gRPC GetTask", grpc.get("task-1", null).getId().equals("task-1"), "task-1");
                    try {
                        grpc.get("nope", null);
                        report("gRPC TaskNotFound", false, "answered");
                    } catch (StatusRuntimeException e) {
                        ErrorInfo info = null;
                        for (var any : StatusProto.fromThrowable(e).getDetailsList()) {
                            if (any.is(ErrorInfo.class)) {
                                info = any.unpack(ErrorInfo.class);
                            }
                        }
                        report("gRPC TaskNotFound", e.getStatus().getCode() == io.grpc.Status.Code.NOT_FOUND && info != null
                                && info.getReason().equals("TASK_NOT_FOUND") && "Task not found: nope".equals(e.getStatus().getDescription()),
                                e.getStatus() + " " + info);
                    }
                }
                System.out.printf("native: RSS after the checks %.0f MiB%n", service.rssMiB());
            }
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("native smoke check failed: " + failures);
        }
        System.out.println("native smoke check: all passed");
    }

    private void expect(String name, HttpResponse<String> response, int status, String contains) {
        report(name, response.statusCode() == status && response.body().contains(contains),
                response.statusCode() + " " + response.body().substring(0, Math.min(160, response.body().length())));
    }

    private void report(String name, boolean ok, String detail) {
        System.out.printf("  %-28s %s  %s%n", name, ok ? "PASS" : "FAIL", detail);
        if (!ok) {
            failures.add(name);
        }
    }

    private static HttpResponse<String> get(HttpClient http, String url, String bearer) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + bearer)
                .header("A2A-Version", "1.0").GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> jsonRpc(HttpClient http, String base, String bearer, String method, String params)
            throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}";
        return http.send(HttpRequest.newBuilder(URI.create(base + "/")).header("Authorization", "Bearer " + bearer)
                .header("A2A-Version", "1.0").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
