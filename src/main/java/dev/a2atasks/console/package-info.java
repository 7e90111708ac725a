/**
 * The task console: a browser page served by the service at {@code /console/} (static files in
 * {@code META-INF/resources/console/}, plain HTML, CSS and JavaScript modules, no build step). The
 * page is a client of the public HTTP+JSON binding and of nothing else; its security headers
 * (Content-Security-Policy and others) are configuration ({@code quarkus.http.header.*}).
 * <p>
 * Owns: the page and its one redirect. May use: Vert.x Web only; never the store, the protocol port
 * or a binding's classes.
 */
package dev.a2atasks.console;
