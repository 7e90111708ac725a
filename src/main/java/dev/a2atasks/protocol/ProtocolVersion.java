package dev.a2atasks.protocol;

import dev.a2atasks.error.A2AException;
import jakarta.enterprise.context.ApplicationScoped;

/** Checks the A2A-Version a request asks for (spec §3.6), once for every binding. */
@ApplicationScoped
public class ProtocolVersion {

    /** The one version this service speaks (Major.Minor). */
    public static final String SUPPORTED = "1.0";
    /** The service parameter, as HTTP header, query parameter and (lower-cased) gRPC metadata key. */
    public static final String HEADER = "A2A-Version";

    private final ProtocolConfig config;

    ProtocolVersion(ProtocolConfig config) {
        this.config = config;
    }

    /**
     * The version the call asked for, when it is 1.0 (null or blank: absent, which means
     * {@code a2a.protocol.version-when-absent}); throws VersionNotSupported otherwise.
     */
    public String require(String requested) {
        String version = requested == null || requested.isBlank() ? config.versionWhenAbsent() : requested.trim();
        if (!majorMinor(version).equals(SUPPORTED)) {
            String shown = version.length() > 16 ? version.substring(0, 16) + "..." : version;
            throw new A2AException.VersionNotSupported(shown, SUPPORTED);
        }
        return version;
    }

    /** Patch versions do not take part in negotiation: "1.0.2" asks for 1.0. */
    private static String majorMinor(String version) {
        String[] parts = version.split("\\.", -1);
        return parts.length >= 2 ? parts[0] + "." + parts[1] : version;
    }
}
