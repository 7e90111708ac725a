package dev.a2atasks.protocol;

import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * What a binding read from a request's envelope before any operation: which binding, the A2A
 * service parameters (spec §3.6: {@code A2A-Version}, {@code A2A-Extensions}) as received, and the
 * caller's deadline where the binding carries one (gRPC). Built once per request by the binding's
 * filter or interceptor; {@link Admission} turns it into a {@link CallContext}.
 */
public record ServiceParameters(Binding binding, String version, String extensions, Optional<Instant> deadline) {

    /** The requested extension URIs: comma-separated, blanks and repeats dropped, order kept. */
    public Set<String> extensionUris() {
        if (extensions == null || extensions.isBlank()) {
            return Set.of();
        }
        Set<String> uris = new LinkedHashSet<>();
        Arrays.stream(extensions.split(",")).map(String::trim).filter(u -> !u.isEmpty()).forEach(uris::add);
        return Set.copyOf(uris);
    }
}
