package dev.a2atasks.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.a2atasks.proto.v1.A2AServiceGrpc;
import dev.a2atasks.proto.v1.CancelTaskRequest;
import dev.a2atasks.proto.v1.GetTaskRequest;
import dev.a2atasks.proto.v1.ListTasksRequest;
import dev.a2atasks.proto.v1.ListTasksResponse;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Part;
import dev.a2atasks.proto.v1.Role;
import dev.a2atasks.proto.v1.SendMessageConfiguration;
import dev.a2atasks.proto.v1.SendMessageRequest;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.proto.v1.TaskPushNotificationConfig;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.CitusProfile;
import dev.a2atasks.support.GrpcChannels;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * On Citus, every statement a caller's requests make the service send is a router query: the
 * coordinator's own statistics ({@code citus_stat_statements}, which record for each distributed
 * query the distribution value it was routed by) show a value for each, after a session of one
 * caller: a task with a webhook run to completion by the demo agent (status updates, artifact
 * chunks, outbox rows), a task cancelled, a streamed send read to its end (its event reads),
 * GetTask, two ListTasks pages. Only the background sweeps across owners, which lock nothing
 * while they read, are multi-shard.
 */
@QuarkusTest
@TestProfile(CitusProfile.class)
class CitusRoutingTest extends BindingTest {

    private static final String TENANT = "CitusRoutingTest";

    /** The sweeps across owners (each replica's timers), by a fragment of their text: read without a lock, then handled per owner. */
    private static final List<String> SWEEPS = List.of(
            "lease_owner is not null", // the lease sweep's candidates
            "from push_outbox", // the delivery workers' idle poll and their search for owners with due rows (the claims are routed)
            "sealed_with", // the secret re-seal's candidates
            "rate_limit_buckets"); // forgetting idle shared buckets

    /**
     * An event's outbox rows: an INSERT ... SELECT pushed down to the owner's node as one task
     * ({@code CitusOutboxPlanTest} explains it), which the statistics record without the value.
     */
    private static final String OUTBOX_ROWS = "insert into push_outbox";

    @Test
    void everyStatementOfOneCallersRequestsIsRoutedToOneNode() throws Exception {
        db.clearTenant(TENANT);
        db.execute("SELECT citus_stat_statements_reset()");
        String bearer = Tokens.valid(TENANT, "alice");
        try (GrpcChannels channels = new GrpcChannels(root)) {
            A2AServiceGrpc.A2AServiceBlockingStub stub = channels.stub(bearer);
            Task done = stub.sendMessage(send("route every step", SendMessageConfiguration.newBuilder()
                    .setTaskPushNotificationConfig(TaskPushNotificationConfig.newBuilder().setUrl("http://192.0.2.1/a2a"))
                    .build())).getTask();
            assertEquals(TaskState.TASK_STATE_COMPLETED, done.getStatus().getState());
            Task waiting = stub.sendMessage(send("slow input", SendMessageConfiguration.newBuilder().setReturnImmediately(true).build()))
                    .getTask();
            stub.cancelTask(CancelTaskRequest.newBuilder().setId(waiting.getId()).build());
            // A stream reads its task's events after every commit (task.read.EventTails).
            java.util.Iterator<dev.a2atasks.proto.v1.StreamResponse> events = stub.sendStreamingMessage(send("stream every step",
                    SendMessageConfiguration.getDefaultInstance()));
            int streamed = 0;
            while (events.hasNext()) {
                events.next();
                streamed++;
            }
            assertTrue(streamed > 2, "the stream's events: " + streamed);
            assertEquals(3, stub.getTask(GetTaskRequest.newBuilder().setId(done.getId()).build()).getArtifacts(0).getPartsCount());
            ListTasksResponse first = stub.listTasks(ListTasksRequest.newBuilder().setPageSize(1).build());
            assertEquals(3, first.getTotalSize());
            assertEquals(1, stub.listTasks(ListTasksRequest.newBuilder().setPageSize(1).setPageToken(first.getNextPageToken()).build())
                    .getTasksCount());
        }
        List<String> routed = lines(db.queryText("SELECT regexp_replace(query, '\\s+', ' ', 'g') FROM citus_stat_statements WHERE partition_key = 'alice'"));
        List<String> fannedOut = lines(db.queryText("SELECT regexp_replace(query, '\\s+', ' ', 'g') FROM citus_stat_statements"
                + " WHERE partition_key IS NULL")).stream()
                .filter(query -> SWEEPS.stream().noneMatch(sweep -> query.toLowerCase().contains(sweep.toLowerCase())))
                .filter(query -> !query.toLowerCase().startsWith(OUTBOX_ROWS)).toList();
        assertTrue(routed.size() >= 10, "the session's statements are recorded, routed by the caller's owner:\n" + String.join("\n", routed));
        assertTrue(routed.stream().anyMatch(query -> query.contains("FROM task_events WHERE")), "the stream's event reads:\n"
                + String.join("\n", routed));
        assertTrue(fannedOut.isEmpty(), "statements not routed to one node:\n" + String.join("\n---\n", fannedOut));
    }

    private static SendMessageRequest send(String text, SendMessageConfiguration configuration) {
        return SendMessageRequest.newBuilder().setMessage(Message.newBuilder().setMessageId(UUID.randomUUID().toString())
                .setRole(Role.ROLE_USER).addParts(Part.newBuilder().setText(text))).setConfiguration(configuration).build();
    }

    private static List<String> lines(String text) {
        return text.isBlank() ? List.of() : Arrays.stream(text.split("\n")).filter(line -> !line.isBlank()).toList();
    }
}
