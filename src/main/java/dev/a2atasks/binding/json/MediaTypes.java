package dev.a2atasks.binding.json;

/** Media types of the JSON bindings. */
public final class MediaTypes {
    /** The A2A media type (spec §14.1); plain application/json is accepted as well. */
    public static final String A2A_JSON = "application/a2a+json";

    private MediaTypes() {
    }
}
