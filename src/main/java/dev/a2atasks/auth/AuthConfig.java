package dev.a2atasks.auth;

import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "a2a.auth")
public interface AuthConfig {

    /** JWT claim holding the caller's tenant; when unset every caller's tenant is "". */
    Optional<String> tenantClaim();

    Anonymous anonymous();

    VerifiedTokenCache verifiedTokenCache();

    interface VerifiedTokenCache {
        /** Most verified tokens remembered; 0 verifies every request afresh. */
        @WithDefault("10000")
        int size();

        /** Longest a verification is trusted (never beyond the token's own expiry). */
        @WithDefault("5m")
        java.time.Duration maxAge();
    }

    interface Anonymous {
        /** Map every request, with or without a token, to one fixed caller. For local trials only. */
        @WithDefault("false")
        boolean enabled();

        @WithDefault("anonymous")
        String subject();

        /** Tenant of the anonymous caller; unset means "". */
        Optional<String> tenant();
    }
}
