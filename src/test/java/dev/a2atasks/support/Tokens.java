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

    public static String wrongIssuer(String subject) {
        return Jwt.issuer("https://someone-else.example").subject(subject).claim("tenant", "").expiresIn(300).sign();
    }

    private static JwtClaimsBuilder claims(String tenant, String subject) {
        return Jwt.issuer(ISSUER).subject(subject).claim("tenant", tenant).expiresIn(300);
    }
}
