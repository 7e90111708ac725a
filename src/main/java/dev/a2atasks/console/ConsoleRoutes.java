package dev.a2atasks.console;

import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The console's files are static resources under {@code META-INF/resources/console/}; the one
 * route of its own sends {@code /console} to {@code /console/}, where the page's relative links
 * (its scripts, and the binding one level up) resolve. The redirect is relative, so it holds
 * behind a proxy that serves the service under a path of its own.
 */
@ApplicationScoped
public class ConsoleRoutes {

    void register(@Observes Router router) {
        // A regular expression: a plain "/console" route would match "/console/" too.
        router.routeWithRegex(HttpMethod.GET, "^/console$")
                .handler(request -> request.response().setStatusCode(302).putHeader("Location", "console/").end());
    }
}
