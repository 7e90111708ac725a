package dev.a2atasks.task;

import dev.a2atasks.time.Timestamps;
import java.time.Instant;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Part;
import dev.a2atasks.proto.v1.Role;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.proto.v1.TaskStatus;
import dev.a2atasks.task.read.TaskReads;
import dev.a2atasks.task.store.TaskStore;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Gives a first dev run something to list: the seed article's ten tasks (t00..t09, one second
 * apart, each with a short history) for subject "alice" in the default tenant. Only when
 * {@code a2a.demo.seed-tasks=true} (the dev profile's default) and only if t00 is absent.
 */
@ApplicationScoped
class DemoTasks {

    private static final Logger LOG = Logger.getLogger(DemoTasks.class);
    static final Caller ALICE = new Caller("", "alice");

    @ConfigProperty(name = "a2a.demo.seed-tasks", defaultValue = "false")
    boolean enabled;

    void seed(@Observes StartupEvent event, TaskStore store, TaskReads reads) throws Throwable {
        if (!enabled) {
            return;
        }
        boolean present = VertxContextSupport.subscribeAndAwait(() -> reads.task(ALICE, "t00").map(task -> task != null));
        if (present) {
            return;
        }
        Instant base = Instant.now().minusSeconds(60);
        for (int i = 0; i < 10; i++) {
            Instant at = base.plusSeconds(i);
            Task task = Task.newBuilder()
                    .setId(String.format("t%02d", i))
                    .setContextId("ctx-demo")
                    .setStatus(TaskStatus.newBuilder().setState(TaskState.TASK_STATE_WORKING)
                            .setTimestamp(Timestamps.toProto(at)))
                    .addHistory(message("m-" + i + "-0", Role.ROLE_USER, "Please handle request " + i))
                    .addHistory(message("m-" + i + "-1", Role.ROLE_AGENT, "Working on request " + i))
                    .build();
            VertxContextSupport.<Long>subscribeAndAwait(() -> store.create(ALICE, task));
        }
        LOG.info("Demo data: created tasks t00..t09 for subject 'alice' (a2a.demo.seed-tasks=true)");
    }

    private static Message message(String id, Role role, String text) {
        return Message.newBuilder().setMessageId(id).setRole(role).addParts(Part.newBuilder().setText(text)).build();
    }
}
