package dev.a2atasks.support;

import java.util.Map;

import dev.a2atasks.proto.v1.ListTasksResponse;
import dev.a2atasks.proto.v1.Task;

/**
 * ListTasks and GetTask through one binding, over real loopback. Parameters are the camelCase
 * names and text values a JSON client would send; results are decoded into the proto types so
 * every binding's answer can be compared with every other's. Errors throw {@link ApiException}.
 */
public interface TaskApi {

    String name();

    /** params may hold "tenant" (the path or request tenant) besides the ListTasks fields. */
    ListTasksResponse list(String bearer, Map<String, String> params);

    Task get(String bearer, String tenant, String id, String historyLength);

    /** Whether this binding can carry the value at all (gRPC cannot send pageSize "abc"). */
    default boolean canExpress(Map<String, String> params) {
        return true;
    }
}
