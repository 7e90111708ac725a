package dev.a2atasks.db;

import java.util.Optional;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.runtime.Startup;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;

/** Fails start-up with an actionable message when no database is configured and none is embedded. */
@Startup
@ApplicationScoped
class DatabaseUrlCheck {

    @ConfigProperty(name = EmbeddedPostgresConfigSourceFactory.REACTIVE_URL)
    Optional<String> reactiveUrl;

    @PostConstruct
    void check() {
        if (reactiveUrl.isEmpty() || reactiveUrl.get().isBlank()) {
            throw new IllegalStateException("No database configured: set " + EmbeddedPostgresConfigSourceFactory.REACTIVE_URL
                    + " (e.g. postgresql://db.example:5432/a2a) and quarkus.datasource.username/password."
                    + " The embedded PostgreSQL is only available in the dev run and the tests.");
        }
    }
}
