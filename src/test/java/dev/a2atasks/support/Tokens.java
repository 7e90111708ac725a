package dev.a2atasks.support;

import java.security.PrivateKey;
import java.time.Instant;

import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import io.smallrye.jwt.util.KeyUtils;

/** Mints bearer tokens for tests with the test key pair under src/test/resources/keys. */
public final class Tokens {

    public static final String ISSUER = "https://a2a-tasks.dev";

    private Tokens() {
    }

    public static String valid(String tenant, String subject) {
        return claims(tenant, subject).sign();
    }

    public static String valid(String subject) {
        return valid("", subject);
    }

    public static String expired(String subject) {
        Instant past = Instant.now().minusSeconds(3600);
        return Jwt.issuer(ISSUER).subject(subject).claim("tenant", "")
                .issuedAt(past).expiresAt(past.plusSeconds(60)).sign();
    }

    public static String wronglySigned(String subject) {
        try {
            PrivateKey other = KeyUtils.readPrivateKey("keys/otherPrivateKey.pem");
            return claims("", subject).sign(other);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Like {@link #valid(String, String)}, for code that runs before Quarkus' config exists (test profiles). */
    public static String validOutsideQuarkus(String tenant, String subject) {
        try {
            return claims(tenant, subject).expiresIn(3600).sign(KeyUtils.readPrivateKey("keys/privateKey.pem"));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A validly signed token whose tenant and subject claims are exactly these JSON values (a
     * String, a number, a list, a map, {@code JsonValue.NULL}); {@link #ABSENT} leaves a claim out.
     */
    public static String withIdentityClaims(Object tenant, Object subject) {
        // Signed with jose4j directly: the JWT builder itself refuses a non-string "sub".
        org.jose4j.jwt.JwtClaims claims = new org.jose4j.jwt.JwtClaims();
        claims.setIssuer(ISSUER);
        claims.setExpirationTimeMinutesInTheFuture(5);
        claims.setIssuedAtToNow();
        if (tenant != ABSENT) {
            claims.setClaim("tenant", tenant == jakarta.json.JsonValue.NULL ? null : tenant);
        }
        if (subject != ABSENT) {
            claims.setClaim("sub", subject);
        }
        try {
            org.jose4j.jws.JsonWebSignature jws = new org.jose4j.jws.JsonWebSignature();
            jws.setPayload(claims.toJson());
            jws.setKey(KeyUtils.readPrivateKey("keys/privateKey.pem"));
            jws.setAlgorithmHeaderValue(org.jose4j.jws.AlgorithmIdentifiers.RSA_USING_SHA256);
            jws.setHeader("typ", "JWT");
            return jws.getCompactSerialization();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Marks a claim to leave out of {@link #withIdentityClaims(Object, Object)}. */
    public static final Object ABSENT = new Object();

    public static String wrongIssuer(String subject) {
        return Jwt.issuer("https://someone-else.example").subject(subject).claim("tenant", "").expiresIn(300).sign();
    }

    private static JwtClaimsBuilder claims(String tenant, String subject) {
        return Jwt.issuer(ISSUER).subject(subject).claim("tenant", tenant).expiresIn(300);
    }
}
