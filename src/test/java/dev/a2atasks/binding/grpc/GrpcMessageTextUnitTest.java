package dev.a2atasks.binding.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** grpc-message is percent-encoded only where the gRPC protocol requires it. */
class GrpcMessageTextUnitTest {

    @Test
    void printableAsciiStaysAsItIs() {
        assertEquals("Task not found: x", GrpcMessageText.encode("Task not found: x"));
        assertEquals("pageToken is \"malformed\"; (a, b) ~*+", GrpcMessageText.encode("pageToken is \"malformed\"; (a, b) ~*+"));
    }

    @Test
    void percentControlAndNonAsciiAreEscaped() {
        assertEquals("100%25 sure", GrpcMessageText.encode("100% sure"));
        assertEquals("a%0Ab", GrpcMessageText.encode("a\nb"));
        assertEquals("caf%C3%A9", GrpcMessageText.encode("café"));
        assertEquals("%F0%9F%98%80", GrpcMessageText.encode("\uD83D\uDE00"));
    }
}
