package dev.a2atasks.binding.jsonrpc;

/** A JSON-RPC 2.0 framing error: the request could not be read as a call at all. */
record JsonRpcError(int code, String message) {
    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;

    static JsonRpcError parse(String message) {
        return new JsonRpcError(PARSE_ERROR, message);
    }

    static JsonRpcError invalidRequest(String message) {
        return new JsonRpcError(INVALID_REQUEST, message);
    }
}
