package dev.a2atasks.binding.rest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Serves the binding's hand-written OpenAPI document ({@code META-INF/openapi.yaml}) at
 * {@code /q/openapi}: YAML as written, JSON with {@code ?format=json} or {@code Accept:
 * application/json}, and at {@code /q/openapi.json}, {@code .yaml}, {@code .yml}.
 * <p>
 * Why not the SmallRye OpenAPI extension: it parses the document into its model, filters it and
 * writes it out in both forms while the service starts (0.3–0.5 s of a JVM start on two
 * cores, bench table e2), for a document that never changes after the build. Here nothing happens
 * before the first request for it; the JSON form is converted once, on a worker thread.
 */
@ApplicationScoped
public class OpenApiDocument {

    static final String SOURCE = "META-INF/openapi.yaml";
    private static final String YAML_TYPE = "application/yaml;charset=UTF-8";
    private static final String JSON_TYPE = "application/json;charset=UTF-8";

    private volatile byte[] yaml;
    private volatile byte[] json;

    void register(@Observes Router router) {
        router.get("/q/openapi").blockingHandler(request -> send(request, wantsJson(request)), false);
        router.get("/q/openapi.json").blockingHandler(request -> send(request, true), false);
        router.get("/q/openapi.yaml").blockingHandler(request -> send(request, false), false);
        router.get("/q/openapi.yml").blockingHandler(request -> send(request, false), false);
    }

    /** {@code ?format=} decides when present (json or yaml, any case); else the Accept header; else YAML. */
    static boolean wantsJson(RoutingContext request) {
        String format = request.queryParams().get("format");
        if (format != null) {
            return format.toLowerCase(Locale.ROOT).equals("json");
        }
        String accept = request.request().getHeader(HttpHeaders.ACCEPT);
        return accept != null && accept.toLowerCase(Locale.ROOT).contains("application/json");
    }

    private void send(RoutingContext request, boolean asJson) {
        byte[] body = asJson ? json() : yaml();
        request.response().putHeader(HttpHeaders.CONTENT_TYPE, asJson ? JSON_TYPE : YAML_TYPE)
                .end(io.vertx.core.buffer.Buffer.buffer(body));
    }

    private byte[] yaml() {
        byte[] bytes = yaml;
        if (bytes == null) {
            try (InputStream in = OpenApiDocument.class.getClassLoader().getResourceAsStream(SOURCE)) {
                if (in == null) {
                    throw new IllegalStateException(SOURCE + " is missing from the application");
                }
                bytes = in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            yaml = bytes; // racing first requests read the same bytes; either copy may stay
        }
        return bytes;
    }

    private byte[] json() {
        byte[] bytes = json;
        if (bytes == null) {
            try {
                bytes = new ObjectMapper().writerWithDefaultPrettyPrinter()
                        .writeValueAsBytes(new YAMLMapper().readTree(yaml()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            json = bytes;
        }
        return bytes;
    }
}
