package dev.a2atasks.protocol;

/** The three A2A protocol bindings this service serves, by their Agent Card names. */
public enum Binding {
    GRPC("GRPC"), HTTP_JSON("HTTP+JSON"), JSONRPC("JSONRPC");

    private final String wireName;

    Binding(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
