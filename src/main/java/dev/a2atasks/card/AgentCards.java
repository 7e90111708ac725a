package dev.a2atasks.card;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;

import dev.a2atasks.protocol.ProtocolVersion;
import dev.a2atasks.agent.AgentExecutor;
import dev.a2atasks.client.CatchUpHint;
import dev.a2atasks.client.HistoryPaging;
import dev.a2atasks.task.RequestValidator;
import dev.a2atasks.proto.v1.AgentCapabilities;
import dev.a2atasks.proto.v1.AgentCard;
import dev.a2atasks.proto.v1.AgentInterface;
import dev.a2atasks.proto.v1.AgentProvider;
import dev.a2atasks.proto.v1.AgentSkill;
import dev.a2atasks.proto.v1.HTTPAuthSecurityScheme;
import dev.a2atasks.proto.v1.SecurityRequirement;
import dev.a2atasks.proto.v1.SecurityScheme;
import dev.a2atasks.proto.v1.StringList;
import jakarta.enterprise.context.ApplicationScoped;

/** Builds this service's Agent Card (spec §8) once, from configuration, with its ETag. */
@ApplicationScoped
public class AgentCards {

    static final String SECURITY_SCHEME = "bearer";

    /**
     * How long after its status timestamp a change may become visible at most: the database re-stamps
     * slower commits (migration V5, 100 ms), plus the time a commit takes to become visible.
     */
    public static final Duration COMMIT_LAG_BOUND = Duration.ofMillis(500);

    private final AgentCard card;
    private final byte[] json;
    private final String etag;
    /** When this process built the card, in whole seconds (HTTP dates carry no more). */
    private final java.time.Instant builtAt = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);

    AgentCards(AgentCardConfig config, AgentExecutor agent,
            @org.eclipse.microprofile.config.inject.ConfigProperty(name = "a2a.push.enabled", defaultValue = "true") boolean push) {
        this.card = build(config, agent.outputModes(), push);
        try {
            this.json = JsonFormat.printer().print(card).getBytes(StandardCharsets.UTF_8);
            this.etag = '"' + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(json), 0, 16) + '"';
        } catch (InvalidProtocolBufferException | NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public AgentCard card() {
        return card;
    }

    /** The card as ProtoJSON. */
    byte[] json() {
        return json.clone();
    }

    String etag() {
        return etag;
    }

    java.time.Instant builtAt() {
        return builtAt;
    }

    static AgentCard build(AgentCardConfig config, List<String> outputModes, boolean pushNotifications) {
        String base = config.publicUrl().replaceAll("/+$", "");
        AgentCard.Builder card = AgentCard.newBuilder()
                .setName(config.name())
                .setDescription(config.description())
                .setVersion(config.version())
                .setProvider(AgentProvider.newBuilder()
                        .setOrganization(config.provider().organization())
                        .setUrl(config.provider().url()))
                // In order of preference: JSON-RPC is what most A2A clients speak.
                .addSupportedInterfaces(endpoint(base + "/", "JSONRPC"))
                .addSupportedInterfaces(endpoint(base, "HTTP+JSON"))
                .addSupportedInterfaces(endpoint(config.grpcAddress().orElseGet(() -> hostPort(base)), "GRPC"))
                .setCapabilities(AgentCapabilities.newBuilder()
                        .setStreaming(true)
                        .setPushNotifications(pushNotifications)
                        .setExtendedAgentCard(false)
                        .addExtensions(CatchUpHint.declaration(catchUpSkew(config), COMMIT_LAG_BOUND))
                        .addExtensions(HistoryPaging.declaration(RequestValidator.DEFAULT_MESSAGE_PAGE_SIZE,
                                RequestValidator.MAX_MESSAGE_PAGE_SIZE)))
                .putSecuritySchemes(SECURITY_SCHEME, SecurityScheme.newBuilder()
                        .setHttpAuthSecurityScheme(HTTPAuthSecurityScheme.newBuilder()
                                .setScheme("Bearer")
                                .setBearerFormat("JWT")
                                .setDescription("A JWT from the deployment's identity provider; 'sub' is the caller."))
                        .build())
                .addSecurityRequirements(SecurityRequirement.newBuilder()
                        .putSchemes(SECURITY_SCHEME, StringList.getDefaultInstance()))
                .addDefaultInputModes("text/plain")
                .addDefaultInputModes("application/json")
                .addAllDefaultOutputModes(outputModes)
                .addSkills(AgentSkill.newBuilder()
                        .setId("task-store")
                        .setName("Task store")
                        .setDescription("Lists the caller's tasks newest-first with signed keyset page tokens (ListTasks),"
                                + " and reads one task with a bounded history tail (GetTask).")
                        .addTags("tasks").addTags("listing").addTags("history")
                        .addExamples("ListTasks {\"status\": \"TASK_STATE_WORKING\", \"pageSize\": 100, \"historyLength\": 0}")
                        .addExamples("GetTask {\"id\": \"<task id>\", \"historyLength\": 5}")
                        .addExamples("ListTaskMessages {\"taskId\": \"<task id>\", \"direction\": \"DIRECTION_OLDEST_FIRST\"}"
                                + " (history-paging extension; send A2A-Extensions: " + HistoryPaging.URI + ")"))
                .addSkills(AgentSkill.newBuilder()
                        .setId("agent")
                        .setName("Agent")
                        .setDescription("Works on messages sent with SendMessage or SendStreamingMessage; every task and"
                                + " update is stored, streamed and listed.")
                        .addTags("messages").addTags("streaming"));
        config.documentationUrl().ifPresent(card::setDocumentationUrl);
        return card.build();
    }

    private static Duration catchUpSkew(AgentCardConfig config) {
        if (config.catchUpSkew().compareTo(COMMIT_LAG_BOUND) < 0) {
            throw new IllegalArgumentException("a2a.card.catch-up-skew must be at least the commit-lag bound "
                    + COMMIT_LAG_BOUND.toMillis() + " ms, not " + config.catchUpSkew());
        }
        return config.catchUpSkew();
    }

    private static AgentInterface endpoint(String url, String binding) {
        return AgentInterface.newBuilder()
                .setUrl(url)
                .setProtocolBinding(binding)
                .setProtocolVersion(ProtocolVersion.SUPPORTED)
                .build();
    }

    /** gRPC targets are a bare host:port (spec §4.4.6), taken from the public URL. */
    static String hostPort(String url) {
        URI uri = URI.create(url);
        int port = uri.getPort() != -1 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
        return uri.getHost() + ":" + port;
    }
}
