package dev.a2atasks.auth;

import java.security.Principal;

import org.eclipse.microprofile.jwt.Claims;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.logging.Logger;
import org.jose4j.jwt.consumer.ErrorCodes;
import org.jose4j.jwt.consumer.InvalidJwtException;

import dev.a2atasks.error.A2AException;
import dev.a2atasks.validation.Grammar;
import jakarta.json.JsonString;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Turns the request's verified bearer token into a {@link Caller}, the same way on every binding.
 * Authentication itself (signature, issuer, expiry) is smallrye-jwt's; this class decides what a
 * caller is and words the refusals.
 */
@ApplicationScoped
public class CallerResolver {

    private static final Logger LOG = Logger.getLogger(CallerResolver.class);
    static final String NO_SUBJECT = "Bearer token has no 'sub' (subject) claim that is a JSON string";

    private final CurrentIdentityAssociation identities;
    private final AuthConfig config;

    CallerResolver(CurrentIdentityAssociation identities, AuthConfig config) {
        this.identities = identities;
        this.config = config;
    }

    void warnIfAnonymous(@Observes StartupEvent ignored) {
        if (config.anonymous().enabled()) {
            LOG.warnf("ANONYMOUS MODE: a2a.auth.anonymous.enabled=true, every request is served as tenant '%s', subject '%s'"
                    + " without checking credentials. Never enable this outside a local trial.",
                    config.anonymous().tenant().orElse(""), config.anonymous().subject());
        }
    }

    public Uni<Caller> current() {
        if (config.anonymous().enabled()) {
            return of(null);
        }
        return of(identities.getDeferredIdentity());
    }

    /**
     * The caller of a request whose identity is at hand as a (deferred) identity rather than in the
     * request scope: a router route's, which runs outside it.
     */
    public Uni<Caller> of(Uni<SecurityIdentity> identity) {
        if (config.anonymous().enabled()) {
            return Uni.createFrom().item(new Caller(config.anonymous().tenant().orElse(""), config.anonymous().subject()));
        }
        if (identity == null) {
            return Uni.createFrom().failure(new A2AException.Unauthenticated(
                    "Authentication required: send a bearer token (Authorization: Bearer <JWT>)"));
        }
        return identity.onFailure().transform(CallerResolver::refusal).map(this::toCaller);
    }

    Caller toCaller(SecurityIdentity identity) {
        if (identity == null || identity.isAnonymous()) {
            throw new A2AException.Unauthenticated("Authentication required: send a bearer token (Authorization: Bearer <JWT>)");
        }
        Principal principal = identity.getPrincipal();
        if (!(principal instanceof JsonWebToken jwt)) {
            throw new A2AException.Unauthenticated("Authentication required: a JWT bearer token is expected");
        }
        String subject = identityClaim(jwt, Claims.sub.name(), "subject");
        if (subject.isBlank()) {
            throw new A2AException.Unauthenticated("Bearer token claim 'sub' (subject) must not be blank");
        }
        String tenant = config.tenantClaim().isPresent() ? identityClaim(jwt, config.tenantClaim().get(), "tenant") : "";
        return new Caller(tenant, subject);
    }

    /**
     * A claim that names who the caller is, exactly as the token carries it. Identity is never
     * cleaned up: trimming, unquoting or case-folding one would let a token written for one
     * scope be served as another's. A value that is not a JSON string, or that holds control
     * characters or text UTF-8 cannot carry, names nobody and is refused.
     */
    static String identityClaim(JsonWebToken jwt, String claim, String role) {
        Object value = jwt.getClaim(claim);
        if (value == null) {
            throw new A2AException.Unauthenticated("Bearer token has no '" + claim + "' (" + role + ") claim");
        }
        String text;
        if (value instanceof JsonString json) {
            text = json.getString();
        } else if (value instanceof String plain) {
            text = plain;
        } else {
            throw new A2AException.Unauthenticated("Bearer token claim '" + claim + "' (" + role + ") must be a JSON string");
        }
        if (Grammar.hasControlCharacter(text) || Grammar.textProblem(claim, text) != null) {
            throw new A2AException.Unauthenticated("Bearer token claim '" + claim + "' (" + role
                    + ") must be text without control characters");
        }
        return text;
    }

    /** Words an authentication failure for the caller, naming the cause without internals. */
    public static A2AException refusal(Throwable failure) {
        if (failure instanceof A2AException known) {
            return known;
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof InvalidJwtException jwt) {
                if (jwt.hasExpired()) {
                    return new A2AException.Unauthenticated("Bearer token has expired");
                }
                if (jwt.hasErrorCode(ErrorCodes.SIGNATURE_INVALID) || jwt.hasErrorCode(ErrorCodes.SIGNATURE_MISSING)) {
                    return new A2AException.Unauthenticated("Bearer token signature is invalid");
                }
                if (jwt.hasErrorCode(ErrorCodes.ISSUER_INVALID) || jwt.hasErrorCode(ErrorCodes.ISSUER_MISSING)) {
                    return new A2AException.Unauthenticated("Bearer token issuer is not accepted");
                }
                if (jwt.hasErrorCode(ErrorCodes.AUDIENCE_INVALID) || jwt.hasErrorCode(ErrorCodes.AUDIENCE_MISSING)) {
                    return new A2AException.Unauthenticated("Bearer token audience is not accepted");
                }
                if (jwt.hasErrorCode(ErrorCodes.MALFORMED_CLAIM) && String.valueOf(jwt.getMessage()).contains("'sub'")) {
                    return new A2AException.Unauthenticated(NO_SUBJECT);
                }
            }
            // smallrye-jwt refuses a token whose principal name it cannot read (no string sub, upn or
            // preferred_username) before we see it; its message id is stable across versions.
            if (t.getMessage() != null && t.getMessage().startsWith("SRJWT07001")) {
                return new A2AException.Unauthenticated(NO_SUBJECT);
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return new A2AException.Unauthenticated("Bearer token is invalid");
    }
}
