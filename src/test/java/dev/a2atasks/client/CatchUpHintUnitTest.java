package dev.a2atasks.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import com.google.protobuf.Value;

import dev.a2atasks.proto.v1.AgentCapabilities;
import dev.a2atasks.proto.v1.AgentCard;
import dev.a2atasks.proto.v1.AgentExtension;

/** The catch-up extension: what a server declares is what a client reads; anything unusable reads as absent. */
class CatchUpHintUnitTest {

    @Test
    void theDeclarationReadsBack() {
        AgentExtension declared = CatchUpHint.declaration(Duration.ofMillis(2500), Duration.ofMillis(500));
        assertEquals(false, declared.getRequired());
        assertEquals(Optional.of(Duration.ofMillis(2500)), CatchUpHint.skew(card(declared)));
    }

    @Test
    void absentOrUnusableValuesAreIgnored() {
        assertEquals(Optional.empty(), CatchUpHint.skew(AgentCard.getDefaultInstance()));
        AgentExtension other = AgentExtension.newBuilder().setUri("https://example.com/other/v1").build();
        assertEquals(Optional.empty(), CatchUpHint.skew(card(other)));
        for (Value bad : new Value[] { Value.newBuilder().setStringValue("2000").build(), Value.newBuilder().setNumberValue(-1).build(),
                Value.newBuilder().setNumberValue(1e12).build() }) {
            AgentExtension ext = CatchUpHint.declaration(Duration.ofSeconds(2), Duration.ofMillis(500)).toBuilder()
                    .setParams(com.google.protobuf.Struct.newBuilder().putFields(CatchUpHint.SKEW_MILLIS, bad)).build();
            assertEquals(Optional.empty(), CatchUpHint.skew(card(ext)), bad.toString());
        }
    }

    private static AgentCard card(AgentExtension extension) {
        return AgentCard.newBuilder().setCapabilities(AgentCapabilities.newBuilder().addExtensions(extension)).build();
    }
}
