package dev.a2atasks.db;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "a2a.database")
public interface DatabaseConfig {

    /** What a request refused during a database outage tells the caller to wait (Retry-After, RetryInfo). */
    @WithDefault("2s")
    Duration retryAfter();

    /** How often an unreachable database is probed, so its return is noticed (and logged) without traffic. */
    @WithDefault("1s")
    Duration probeInterval();

    /**
     * How the schema is laid out: {@code none}, one PostgreSQL; {@code citus}, distributed by owner
     * on the Citus coordinator the service connects to, after every migration ({@link CitusDistribution}).
     * With {@code citus} the stores send router statements only: no data-modifying CTE (Citus runs
     * one as steps through the coordinator), and locks across owners taken one owner at a time.
     */
    @WithDefault("none")
    Distribution distribution();

    enum Distribution {
        NONE, CITUS
    }
}
