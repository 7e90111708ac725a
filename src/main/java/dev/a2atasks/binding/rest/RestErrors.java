package dev.a2atasks.binding.rest;

import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import dev.a2atasks.binding.json.HttpError;
import dev.a2atasks.error.A2AException;
import dev.a2atasks.error.ErrorKind;
import dev.a2atasks.protocol.Failures;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

/** The HTTP+JSON binding's only error mapping: every failure becomes the spec's error body. */
public class RestErrors {

    private final Failures failures;

    RestErrors(Failures failures) {
        this.failures = failures;
    }

    @ServerExceptionMapper
    public Response webApplication(WebApplicationException failure, HttpHeaders headers) {
        // Routing and content negotiation (unknown path, method, media type): the framework's status, our body.
        int status = failure.getResponse().getStatus();
        A2AException error = ErrorKind.httpRefusal(status) != null ? A2AException.Rejected.ofHttpStatus(status)
                : failures.classify(failure, "HTTP+JSON");
        return toResponse(error, headers);
    }

    @ServerExceptionMapper
    public Response any(Throwable failure, HttpHeaders headers) {
        return toResponse(failures.classify(failure, "HTTP+JSON"), headers);
    }

    static Response toResponse(A2AException error, HttpHeaders headers) {
        HttpError http = HttpError.of(error, headers.getHeaderString(HttpHeaders.ACCEPT));
        Response.ResponseBuilder response = Response.status(http.status()).type(http.mediaType()).entity(http.body());
        http.headers().forEach(response::header);
        return response.build();
    }
}
