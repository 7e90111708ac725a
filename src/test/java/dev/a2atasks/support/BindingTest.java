package dev.a2atasks.support;

import java.net.URL;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import dev.a2atasks.proto.v1.ListTasksResponse;
import dev.a2atasks.proto.v1.Task;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import jakarta.inject.Inject;

/** Base of tests that run each scenario through every binding against the running service. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class BindingTest {

    @TestHTTPResource("/")
    protected URL root;

    @Inject
    AgroalDataSource dataSource;

    protected Db db;
    private GrpcTaskApi grpc;
    private RestTaskApi rest;
    private JsonRpcTaskApi jsonRpc;

    @BeforeAll
    void openClients() {
        db = new Db(dataSource);
        grpc = new GrpcTaskApi(root);
        rest = new RestTaskApi();
        jsonRpc = new JsonRpcTaskApi();
    }

    @AfterAll
    void closeClients() throws InterruptedException {
        grpc.close();
    }

    /** Binding names for parameterized tests; {@link #api(String)} turns one into a client. */
    public static Stream<String> bindings() {
        return Stream.of("HTTP+JSON", "GRPC", "JSONRPC");
    }

    protected TaskApi api(String binding) {
        return switch (binding) {
            case "HTTP+JSON" -> rest;
            case "GRPC" -> grpc;
            case "JSONRPC" -> jsonRpc;
            default -> throw new IllegalArgumentException(binding);
        };
    }

    /** A tenant name unique to this test and binding, emptied before use. */
    protected String freshTenant(String test, TaskApi api) {
        String tenant = getClass().getSimpleName() + "-" + test + "-" + api.name();
        db.clearTenant(tenant);
        return tenant;
    }

    /** Walks every page, ending only on an empty nextPageToken; returns each page's task ids. */
    public static List<List<String>> walk(TaskApi api, String bearer, Map<String, String> params) {
        List<List<String>> pages = new ArrayList<>();
        String token = "";
        do {
            Map<String, String> request = new HashMap<>(params);
            if (!token.isEmpty()) {
                request.put("pageToken", token);
            }
            ListTasksResponse page = api.list(bearer, request);
            pages.add(ids(page));
            token = page.getNextPageToken();
            if (pages.size() > 10_000) {
                throw new AssertionError("walk does not end");
            }
        } while (!token.isEmpty());
        return pages;
    }

    public static List<String> ids(ListTasksResponse page) {
        return page.getTasksList().stream().map(Task::getId).toList();
    }
}
