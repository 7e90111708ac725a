package dev.a2atasks.binding.rest;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.jboss.resteasy.reactive.RestQuery;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.config.HttpClientConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.response.Response;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.QueryParam;

/**
 * The OpenAPI document at {@code /q/openapi} against the routes the service really answers, both
 * ways: every documented path and method reaches an operation (not the router's 404/405) and every
 * documented query parameter is read (a bad value is refused naming it); every route the service
 * declares, with the query parameters it reads, is documented.
 */
@QuarkusTest
class OpenApiRoutesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TENANT = "OpenApiRoutesTest";
    private static final List<String> METHODS = List.of("get", "post", "delete");

    private static JsonNode document() throws IOException {
        String text = given().accept("application/json").get("/q/openapi?format=json").then().statusCode(200).extract().asString();
        return JSON.readTree(text);
    }

    /** The four ways to ask for it give one document, in the form asked for, without credentials. */
    @Test
    void theDocumentIsServedAsYamlAndAsJson() throws IOException {
        JsonNode json = document();
        assertEquals("a2a-tasks HTTP+JSON binding", json.at("/info/title").asText());
        ObjectMapper yaml = new com.fasterxml.jackson.dataformat.yaml.YAMLMapper();
        Response plain = given().get("/q/openapi").then().statusCode(200).extract().response();
        assertTrue(plain.contentType().startsWith("application/yaml"), plain.contentType());
        assertEquals(json, yaml.readTree(plain.asString()));
        Response byAccept = given().accept("application/json").get("/q/openapi").then().statusCode(200).extract().response();
        assertTrue(byAccept.contentType().startsWith("application/json"), byAccept.contentType());
        assertEquals(json, JSON.readTree(byAccept.asString()));
        assertEquals(json, JSON.readTree(given().get("/q/openapi.json").then().statusCode(200).extract().asString()));
        assertEquals(json, yaml.readTree(given().get("/q/openapi.yaml").then().statusCode(200).extract().asString()));
        Response yamlAsked = given().accept("application/json").get("/q/openapi?format=YAML").then().statusCode(200).extract().response();
        assertTrue(yamlAsked.contentType().startsWith("application/yaml"), "format= wins over Accept: " + yamlAsked.contentType());
    }

    @Test
    void everyDocumentedRouteAndParameterIsServed() throws IOException {
        JsonNode doc = document();
        String bearer = Tokens.valid(TENANT, "reader");
        List<String> checked = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = doc.get("paths").fields(); paths.hasNext();) {
            Map.Entry<String, JsonNode> path = paths.next();
            for (String method : METHODS) {
                JsonNode operation = path.getValue().get(method);
                if (operation == null) {
                    continue;
                }
                String url = concrete(path.getKey());
                Response answer = call(method, url, bearer, Map.of(), path.getKey().equals("/"));
                String what = method.toUpperCase() + " " + path.getKey() + " -> " + answer.statusCode() + " " + answer.asString();
                assertFalse(answer.statusCode() == 405, what);
                assertFalse(answer.statusCode() == 404 && !answer.asString().contains("TASK_NOT_FOUND"),
                        "answered by the router, not an operation: " + what);
                assertTrue(answer.statusCode() < 500, what);
                checked.add(method + " " + path.getKey());

                for (JsonNode parameter : parameters(doc, operation)) {
                    if (!parameter.get("in").asText().equals("query")) {
                        continue;
                    }
                    String name = parameter.get("name").asText();
                    String bad = invalidValue(parameter.get("schema"));
                    Response refused = call(method, url, bearer, Map.of(name, bad), false);
                    assertEquals(400, refused.statusCode(), name + "=" + bad + " on " + what + ": " + refused.asString());
                    List<String> fields = refused.jsonPath()
                            .getList("error.details.find { it.'@type'.endsWith('BadRequest') }.fieldViolations.field");
                    assertTrue(fields != null && fields.contains(name), name + " is read by " + path.getKey() + ": " + refused.asString());
                }
            }
        }
        System.out.println("OpenAPI routes answered: " + checked.size());
        assertTrue(checked.size() >= 25, checked.toString());
    }

    @Test
    void everyRouteAndQueryParameterTheServiceDeclaresIsDocumented() throws Exception {
        JsonNode doc = document();
        Set<String> documented = new TreeSet<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = doc.get("paths").fields(); paths.hasNext();) {
            Map.Entry<String, JsonNode> path = paths.next();
            for (String method : METHODS) {
                JsonNode operation = path.getValue().get(method);
                if (operation != null) {
                    Set<String> query = new TreeSet<>();
                    for (JsonNode parameter : parameters(doc, operation)) {
                        if (parameter.get("in").asText().equals("query")) {
                            query.add(parameter.get("name").asText());
                        }
                    }
                    documented.add(method + " " + shape(path.getKey()) + " " + query);
                }
            }
        }
        Set<String> declared = new TreeSet<>();
        for (Class<?> resource : resources()) {
            String base = resource.getAnnotation(jakarta.ws.rs.Path.class).value();
            for (Method m : resource.getDeclaredMethods()) {
                String method = m.isAnnotationPresent(GET.class) ? "get" : m.isAnnotationPresent(POST.class) ? "post"
                        : m.isAnnotationPresent(DELETE.class) ? "delete" : null;
                if (method == null) {
                    continue;
                }
                jakarta.ws.rs.Path sub = m.getAnnotation(jakarta.ws.rs.Path.class);
                String template = join(base, sub == null ? "" : sub.value());
                Set<String> query = new TreeSet<>();
                for (Parameter p : m.getParameters()) {
                    if (p.isAnnotationPresent(QueryParam.class)) {
                        query.add(p.getAnnotation(QueryParam.class).value());
                    } else if (p.isAnnotationPresent(RestQuery.class)) {
                        String named = p.getAnnotation(RestQuery.class).value();
                        query.add(named.isEmpty() ? p.getName() : named);
                    }
                }
                for (String path : expandTenant(template)) {
                    declared.add(method + " " + shape(path) + " " + query);
                }
            }
        }
        assertTrue(declared.size() >= 20, declared.toString());
        Set<String> undocumented = new TreeSet<>(declared);
        undocumented.removeAll(documented);
        assertEquals(Set.of(), undocumented, "declared routes (with their query parameters) the document lacks");

        // The streaming routes are Vert.x routes: each is documented with and without a tenant, at paths its regex matches.
        for (String[] route : new String[][] { { "post", StreamRoutes.MESSAGE_STREAM }, { "get", StreamRoutes.SUBSCRIBE },
                { "post", StreamRoutes.SUBSCRIBE } }) {
            long matching = documented.stream().filter(d -> d.startsWith(route[0] + " "))
                    .map(d -> d.split(" ")[1].replace("{}", "x")).filter(p -> p.matches(route[1])).count();
            assertEquals(2, matching, route[0] + " " + route[1] + ": documented with and without a tenant");
        }
        // And nothing is documented that the service does not declare.
        for (String d : documented) {
            String path = d.split(" ")[1].replace("{}", "x");
            boolean stream = path.matches(StreamRoutes.MESSAGE_STREAM) || path.matches(StreamRoutes.SUBSCRIBE);
            assertTrue(stream || declared.contains(d), "documented but not declared: " + d);
        }
    }

    private static List<Class<?>> resources() throws IOException {
        Path classes = Path.of("target/classes");
        List<Class<?>> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes.resolve("dev/a2atasks"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class") && !f.getFileName().toString().contains("$")).toList()) {
                String name = classes.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                try {
                    Class<?> type = Class.forName(name, false, OpenApiRoutesTest.class.getClassLoader());
                    if (type.isAnnotationPresent(jakarta.ws.rs.Path.class)) {
                        found.add(type);
                    }
                } catch (ClassNotFoundException | LinkageError e) {
                    // not loadable here: not a resource either
                }
            }
        }
        assertTrue(found.size() >= 5, found.toString());
        return found;
    }

    private static String join(String base, String sub) {
        String path = (base.endsWith("/") ? base : base + "/") + sub;
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    /** "{tenant:([^/]+/)?}rest": the route with and without its tenant segment. */
    private static List<String> expandTenant(String template) {
        String optional = "{tenant:([^/]+/)?}";
        return template.contains(optional) ? List.of(template.replace(optional, ""), template.replace(optional, "{tenant}/"))
                : List.of(template);
    }

    /** A path with every parameter written {}: the shape both sides are compared in. */
    private static String shape(String path) {
        return path.replaceAll("\\{[^}]+\\}", "{}");
    }

    private static String concrete(String path) {
        return path.replace("{tenant}", TENANT).replace("{name}", "no-such-mirror").replaceAll("\\{[^}]+\\}", "no-such-task");
    }

    private static List<JsonNode> parameters(JsonNode doc, JsonNode operation) {
        List<JsonNode> all = new ArrayList<>();
        if (operation.has("parameters")) {
            for (JsonNode parameter : operation.get("parameters")) {
                all.add(parameter.has("$ref") ? doc.at(parameter.get("$ref").asText().substring(1)) : parameter);
            }
        }
        return all;
    }

    /** A value the schema refuses: below a minimum, outside an enum, not a date, not a boolean, over a length. */
    private static String invalidValue(JsonNode schema) {
        if (schema.has("enum")) {
            return "NOT_ONE_OF_THEM";
        }
        return switch (schema.path("type").asText()) {
            case "integer" -> schema.has("minimum") ? Long.toString(schema.get("minimum").asLong() - 1) : "not-a-number";
            case "boolean" -> "maybe";
            default -> schema.path("format").asText().equals("date-time") ? "yesterday"
                    : schema.has("maxLength") ? "x".repeat(schema.get("maxLength").asInt() + 1) : "\u0000";
        };
    }

    private static Response call(String method, String url, String bearer, Map<String, String> query, boolean jsonRpc) {
        var request = given().config(RestAssuredConfig.config().httpClient(HttpClientConfig.httpClientConfig()
                .setParam("http.socket.timeout", 5000)))
                .urlEncodingEnabled(false).header("A2A-Version", "1.0").header("Authorization", "Bearer " + bearer)
                // declared on every call: the history-paging route needs it, and it changes no other route
                .header("A2A-Extensions", dev.a2atasks.client.HistoryPaging.URI);
        StringBuilder target = new StringBuilder(url);
        char separator = '?';
        for (Map.Entry<String, String> q : query.entrySet()) {
            target.append(separator).append(q.getKey()).append('=')
                    .append(java.net.URLEncoder.encode(q.getValue(), java.nio.charset.StandardCharsets.UTF_8));
            separator = '&';
        }
        if (method.equals("post")) {
            request = request.contentType("application/json")
                    .body(jsonRpc ? "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"no-such-task\"}}" : "{}");
        }
        return request.request(method.toUpperCase(), target.toString());
    }
}
