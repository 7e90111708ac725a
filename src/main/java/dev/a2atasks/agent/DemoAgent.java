package dev.a2atasks.agent;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Part;
import dev.a2atasks.proto.v1.TaskState;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The built-in agent, used while the application provides no {@link AgentExecutor}: it makes
 * {@code ./mvnw quarkus:dev} a working A2A agent and gives the tests a deterministic one. It reads
 * the text of the user's message:
 * <ul>
 * <li>containing "fail": FAILED with a reason;</li>
 * <li>containing "input": INPUT_REQUIRED, asking for more (answer on the same task to go on);</li>
 * <li>containing "reply": answers with a direct Message (no task results);</li>
 * <li>anything else: WORKING, then an artifact {@code echo} streamed in three chunks holding the
 * text, then COMPLETED.</li>
 * </ul>
 * Between steps it waits {@code a2a.demo-agent.step-delay} (default 0), which makes streams
 * observable in a terminal; a message containing "slow" waits at least
 * {@code a2a.demo-agent.slow-step-delay} (default 200 ms) between steps, so a client can watch,
 * subscribe to or cancel a task while it is WORKING.
 */
@DefaultBean
@ApplicationScoped
public class DemoAgent implements AgentExecutor {

    private final Duration stepDelay;
    private final Duration slowStepDelay;

    DemoAgent(@ConfigProperty(name = "a2a.demo-agent.step-delay", defaultValue = "0s") Duration stepDelay,
            @ConfigProperty(name = "a2a.demo-agent.slow-step-delay", defaultValue = "200ms") Duration slowStepDelay) {
        this.stepDelay = stepDelay;
        this.slowStepDelay = slowStepDelay;
    }

    @Override
    public void execute(AgentRequest request, TaskUpdater task) throws InterruptedException {
        String text = request.text();
        String lower = text.toLowerCase(Locale.ROOT);
        Duration delay = lower.contains("slow") && slowStepDelay.compareTo(stepDelay) > 0 ? slowStepDelay : stepDelay;
        pause(delay);
        if (lower.contains("fail")) {
            task.fail("Failed as asked");
            return;
        }
        if (lower.contains("input")) {
            task.requireInput("What should I add?");
            return;
        }
        if (lower.contains("reply")) {
            task.reply(Message.newBuilder().addParts(Part.newBuilder().setText("You said: " + text)).build());
            return;
        }
        task.status(TaskState.TASK_STATE_WORKING, "Working on it");
        int third = Math.max(1, (text.length() + 2) / 3);
        for (int i = 0; i < 3; i++) {
            pause(delay);
            if (task.isClosed()) {
                return;
            }
            String chunk = text.substring(Math.min(text.length(), i * third), Math.min(text.length(), (i + 1) * third));
            task.appendArtifact("echo", "echo", List.of(Part.newBuilder().setText(chunk).setMediaType("text/plain").build()), i == 2);
        }
        pause(delay);
        if (task.isClosed()) {
            return;
        }
        task.complete("Done");
    }

    private static void pause(Duration delay) throws InterruptedException {
        if (!delay.isZero()) {
            Thread.sleep(delay.toMillis());
        }
    }
}
