package dev.a2atasks.auth;

import java.security.Principal;

import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.logging.Logger;
import org.jose4j.jwt.consumer.ErrorCodes;
import org.jose4j.jwt.consumer.InvalidJwtException;

import dev.a2atasks.error.A2AException;
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
            return Uni.createFrom().item(new Caller(config.anonymous().tenant().orElse(""), config.anonymous().subject()));
        }
        return identities.getDeferredIdentity()
                .onFailure().transform(CallerResolver::refusal)
                .map(this::toCaller);
    }

    Caller toCaller(SecurityIdentity identity) {
        if (identity == null || identity.isAnonymous()) {
            throw new A2AException.Unauthenticated("Authentication required: send a bearer token (Authorization: Bearer <JWT>)");
        }
        Principal principal = identity.getPrincipal();
        if (!(principal instanceof JsonWebToken jwt)) {
            throw new A2AException.Unauthenticated("Authentication required: a JWT bearer token is expected");
        }
        String subject = jwt.getSubject();
        if (subject == null || subject.isBlank()) {
            throw new A2AException.Unauthenticated("Bearer token has no 'sub' claim");
        }
        String tenant = "";
        if (config.tenantClaim().isPresent()) {
            String claim = config.tenantClaim().get();
            Object value = jwt.getClaim(claim);
            if (value == null) {
                throw new A2AException.Unauthenticated("Bearer token has no '" + claim + "' (tenant) claim");
            }
            tenant = value.toString();
            // A JSON string claim may arrive wrapped as a JsonString whose toString() keeps the quotes.
            if (tenant.length() >= 2 && tenant.startsWith("\"") && tenant.endsWith("\"")) {
                tenant = tenant.substring(1, tenant.length() - 1);
            }
        }
        return new Caller(tenant, subject);
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
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return new A2AException.Unauthenticated("Bearer token is invalid");
    }
}
