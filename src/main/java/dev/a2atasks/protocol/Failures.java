package dev.a2atasks.protocol;

import org.jboss.logging.Logger;

import dev.a2atasks.auth.CallerResolver;
import dev.a2atasks.error.A2AException;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.UnauthorizedException;

/** Names any failure that reaches a binding as one of the errors a caller may be told. */
public final class Failures {

    private static final Logger LOG = Logger.getLogger(Failures.class);

    private Failures() {
    }

    /** Known errors pass through; authentication failures are worded; anything else is logged and hidden. */
    public static A2AException classify(Throwable failure, String binding) {
        if (failure instanceof A2AException known) {
            return known;
        }
        if (failure instanceof AuthenticationFailedException || failure instanceof UnauthorizedException) {
            return CallerResolver.refusal(failure);
        }
        LOG.errorf(failure, "Unexpected failure in a %s request", binding);
        return new A2AException.Internal();
    }
}
