package dev.a2atasks.client;

import java.time.Duration;
import java.util.Optional;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;

import dev.a2atasks.proto.v1.AgentCard;
import dev.a2atasks.proto.v1.AgentExtension;

/**
 * The catch-up extension of this project's Agent Card: how far below a walk's or mirror's mark a
 * catch-up must reach on this server. A change becomes visible at most {@code commitLagBoundMillis}
 * after its status timestamp (the server re-stamps slower commits); {@code skewMillis} adds room
 * for clock steps and equal timestamps and is what clients should use as their skew.
 *
 * <p>Declared with {@code required: false}: a client that ignores it still works, with its own skew.
 */
public final class CatchUpHint {

    /** The extension's URI (versioned); its params are {@code skewMillis} and {@code commitLagBoundMillis}. */
    public static final String URI = "https://a2a-tasks.dev/extensions/catch-up/v1";
    public static final String SKEW_MILLIS = "skewMillis";
    public static final String COMMIT_LAG_BOUND_MILLIS = "commitLagBoundMillis";

    private CatchUpHint() {
    }

    /** The declaration a server puts in {@code capabilities.extensions}. */
    public static AgentExtension declaration(Duration skew, Duration commitLagBound) {
        return AgentExtension.newBuilder()
                .setUri(URI)
                .setDescription("Catch-up skew for ListTasks walks and mirrors: list again from the walk's newest status"
                        + " timestamp minus skewMillis. A change is visible at most commitLagBoundMillis after its"
                        + " status timestamp.")
                .setRequired(false)
                .setParams(Struct.newBuilder()
                        .putFields(SKEW_MILLIS, Value.newBuilder().setNumberValue(skew.toMillis()).build())
                        .putFields(COMMIT_LAG_BOUND_MILLIS, Value.newBuilder().setNumberValue(commitLagBound.toMillis()).build()))
                .build();
    }

    /** The skew a card publishes, if it declares the extension with a usable value. */
    public static Optional<Duration> skew(AgentCard card) {
        for (AgentExtension extension : card.getCapabilities().getExtensionsList()) {
            if (URI.equals(extension.getUri())) {
                Value value = extension.getParams().getFieldsOrDefault(SKEW_MILLIS, Value.getDefaultInstance());
                double millis = value.getNumberValue();
                if (value.hasNumberValue() && millis >= 0 && millis <= Duration.ofHours(1).toMillis()) {
                    return Optional.of(Duration.ofMillis((long) millis));
                }
            }
        }
        return Optional.empty();
    }
}
