package dev.a2atasks.protocol;

import org.jboss.logging.Logger;

import dev.a2atasks.auth.CallerResolver;
import dev.a2atasks.db.DatabaseAvailability;
import dev.a2atasks.error.A2AException;
import dev.a2atasks.error.ErrorKind;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.UnauthorizedException;
import jakarta.enterprise.context.ApplicationScoped;

/** Names any failure that reaches a binding as one of the errors a caller may be told; every binding's mapper asks here. */
@ApplicationScoped
public class Failures {

    private static final Logger LOG = Logger.getLogger(Failures.class);

    private final DatabaseAvailability database;

    Failures(DatabaseAvailability database) {
        this.database = database;
    }

    /**
     * Known errors pass through; authentication failures are worded; a database out of reach is
     * retryable (logged once per outage, not per request), and so is one too busy to answer in
     * time (a statement or lock timeout, a deadlock); anything else is logged and hidden.
     */
    public A2AException classify(Throwable failure, String binding) {
        if (failure instanceof A2AException known) {
            return known;
        }
        if (failure instanceof AuthenticationFailedException || failure instanceof UnauthorizedException) {
            return CallerResolver.refusal(failure);
        }
        if (DatabaseAvailability.isOutage(failure)) {
            return database.outage(failure);
        }
        if (DatabaseAvailability.isBusy(failure)) {
            return database.busy(failure);
        }
        LOG.errorf(failure, "Unexpected failure in a %s request", binding);
        return new A2AException.Internal();
    }

    /** The kind of error {@link #classify} will make of this failure, without logging anything (for metrics). */
    public static ErrorKind kindOf(Throwable failure) {
        if (failure instanceof A2AException known) {
            return known.kind();
        }
        if (failure instanceof AuthenticationFailedException || failure instanceof UnauthorizedException) {
            return ErrorKind.UNAUTHENTICATED;
        }
        return DatabaseAvailability.isOutage(failure) || DatabaseAvailability.isBusy(failure) ? ErrorKind.UNAVAILABLE
                : ErrorKind.INTERNAL;
    }
}
