package dev.a2atasks.auth;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;

import org.eclipse.microprofile.jwt.JsonWebToken;

import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;
import jakarta.annotation.Priority;
import jakarta.decorator.Decorator;
import jakarta.decorator.Delegate;
import jakarta.inject.Inject;

/**
 * Remembers bearer tokens that passed verification, so a client that pages with the same token
 * is not charged an RSA signature check on every page (it was the largest single cost of a
 * ListTasks request in the benchmark profile).
 *
 * <p>Keyed by the whole token text: a hit is the exact byte string that verified before, so
 * nothing can be substituted. An entry lives until the token expires, and at most
 * {@code a2a.auth.verified-token-cache.max-age}; the cache holds at most
 * {@code a2a.auth.verified-token-cache.size} tokens (0 turns it off). Only the parse with the
 * configured verification context is cached; every other use of the parser goes straight through.
 */
@Decorator
@Priority(10)
abstract class VerifiedTokenCache implements JWTParser {

    private final JWTParser delegate;
    private final int maxSize;
    private final Duration maxAge;
    private final ConcurrentHashMap<String, Entry> verified = new ConcurrentHashMap<>();

    private record Entry(JsonWebToken token, Instant until) {
    }

    @Inject
    VerifiedTokenCache(@Delegate JWTParser delegate, AuthConfig config) {
        this.delegate = delegate;
        this.maxSize = config.verifiedTokenCache().size();
        this.maxAge = config.verifiedTokenCache().maxAge();
    }

    @Override
    public JsonWebToken parse(String token) throws ParseException {
        if (maxSize <= 0) {
            return delegate.parse(token);
        }
        Instant now = Instant.now();
        Entry hit = verified.get(token);
        if (hit != null) {
            if (now.isBefore(hit.until())) {
                return hit.token();
            }
            verified.remove(token, hit);
        }
        JsonWebToken jwt = delegate.parse(token); // throws for a bad signature, issuer or expiry: nothing is cached
        Instant until = now.plus(maxAge);
        if (jwt.getExpirationTime() > 0 && Instant.ofEpochSecond(jwt.getExpirationTime()).isBefore(until)) {
            until = Instant.ofEpochSecond(jwt.getExpirationTime());
        }
        if (verified.size() >= maxSize) {
            verified.clear(); // bounded memory; the cost is a few re-verifications
        }
        verified.put(token, new Entry(jwt, until));
        return jwt;
    }

    @Override
    public JsonWebToken parse(String token, JWTAuthContextInfo context) throws ParseException {
        return delegate.parse(token, context);
    }
}
