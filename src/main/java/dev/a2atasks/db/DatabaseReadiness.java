package dev.a2atasks.db;

import java.time.Duration;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Readiness: the database answers {@code SELECT 1} on the request pool within two seconds. In
 * place of Quarkus' own datasource check ({@code quarkus.datasource.health.enabled=false}), which
 * sends it through {@code Pool#query} and so, while the database is unreachable, left an uncaught
 * "Result is already complete" per probe behind (see {@link PooledStatements}). DOWN names no
 * cause (the endpoint is public, and a connection error names the database's address); the
 * outage itself is logged once, with its cause, by {@link DatabaseAvailability}.
 */
@Readiness
@ApplicationScoped
public class DatabaseReadiness implements AsyncHealthCheck {

    private static final Duration WAIT = Duration.ofSeconds(2);

    private final Pool pool;

    DatabaseReadiness(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        return PooledStatements.execute(pool, "SELECT 1")
                .ifNoItem().after(WAIT).fail()
                .map(ignored -> HealthCheckResponse.up("database"))
                .onFailure().recoverWithItem(failure -> HealthCheckResponse.down("database"));
    }
}
