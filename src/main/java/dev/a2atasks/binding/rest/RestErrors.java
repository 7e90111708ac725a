package dev.a2atasks.binding.rest;

import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import dev.a2atasks.binding.json.ErrorJson;
import dev.a2atasks.binding.json.MediaTypes;
import dev.a2atasks.error.A2AException;
import dev.a2atasks.protocol.Failures;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.UnauthorizedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

/** The HTTP+JSON binding's only error mapping: every failure becomes the spec's error body. */
public class RestErrors {

    @ServerExceptionMapper({ A2AException.class, AuthenticationFailedException.class, UnauthorizedException.class })
    public Response a2a(RuntimeException failure) {
        return toResponse(Failures.classify(failure, "HTTP+JSON"));
    }

    @ServerExceptionMapper
    public Response webApplication(WebApplicationException failure) {
        // Routing and content negotiation failures (404 unknown path, 405, 406, 415) keep their status.
        return failure.getResponse();
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable failure) {
        return toResponse(Failures.classify(failure, "HTTP+JSON"));
    }

    static Response toResponse(A2AException error) {
        Response.ResponseBuilder response = Response.status(error.kind().httpStatus())
                .type(MediaTypes.A2A_JSON)
                .entity(ErrorJson.httpBody(error).toString());
        if (error instanceof A2AException.Unauthenticated) {
            response.header(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
        }
        return response.build();
    }
}
