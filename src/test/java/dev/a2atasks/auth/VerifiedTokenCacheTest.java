package dev.a2atasks.auth;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;
import jakarta.inject.Inject;

/** The parser the JWT mechanism uses remembers verified tokens, and only those. */
@QuarkusTest
class VerifiedTokenCacheTest {

    @Inject
    JWTParser parser;

    @Test
    void aVerifiedTokenIsNotVerifiedAgain() throws ParseException {
        String token = Tokens.valid("cache-test", "alice");
        assertSame(parser.parse(token), parser.parse(token));
        assertNotSame(parser.parse(token), parser.parse(Tokens.valid("cache-test", "bob")));
    }

    @Test
    void refusedTokensAreRefusedEveryTime() {
        String forged = Tokens.wronglySigned("alice");
        assertThrows(ParseException.class, () -> parser.parse(forged));
        assertThrows(ParseException.class, () -> parser.parse(forged));
        String expired = Tokens.expired("alice");
        assertThrows(ParseException.class, () -> parser.parse(expired));
    }
}
