package dev.a2atasks.error;

/** One invalid request field, as in {@code google.rpc.BadRequest.FieldViolation}. */
public record FieldViolation(String field, String description) {
}
