package dev.a2atasks.push;

import io.quarkus.reactive.datasource.ReactiveDataSource;
import io.quarkus.reactive.pg.client.PgPoolCreator;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.a2atasks.db.StatementCache;

/**
 * The push worker's own Vert.x: one event loop, on which its outbox connection, its webhook client
 * and every step of a delivery run, and a few worker threads for the address lookups before each
 * POST. On the service's event loops, which the HTTP and gRPC servers share out among requests,
 * each of those steps waited in line behind request work: under a burst of sends a claim took
 * 70-200 ms to come back, and a delivery hopped through those queues two or three times, so the
 * deliveries fell behind the events they carry (bench/RESULTS.md, "Deliveries on a loop of their
 * own"). A thread of its own is scheduled by the operating system beside the request loops
 * instead of behind their queues. One loop is enough: a delivery is a few small callbacks, and the
 * worker keeps at most {@code a2a.push.max-in-flight} of them at once.
 */
@Singleton
public class DeliveryLoop {

    /** Address lookups at once (the system resolver blocks); more wait for a thread. */
    private static final int LOOKUP_THREADS = 4;

    private final Vertx vertx;

    DeliveryLoop() {
        this.vertx = Vertx.vertx(new VertxOptions()
                .setEventLoopPoolSize(1)
                .setWorkerPoolSize(LOOKUP_THREADS)
                .setInternalBlockingPoolSize(1)
                // Nothing of the class path or the file system is served from here: no cache directory.
                .setFileSystemOptions(new FileSystemOptions().setClassPathResolvingEnabled(false).setFileCachingEnabled(false)));
    }

    /** The Vert.x instance the worker's client is built on. */
    Vertx vertx() {
        return vertx;
    }

    /** A context on the loop: a delivery's steps run on it from the first to the last. */
    Context context() {
        return vertx.getOrCreateContext();
    }

    /** The push datasource's pool (the worker's claims and deletes) on this loop, its statements kept prepared as the others'. */
    @Produces
    @Singleton
    @ReactiveDataSource("push")
    PgPoolCreator pushPool() {
        return input -> StatementCache.create(input, vertx);
    }

    /**
     * Closed with the bean container at the end of a shutdown, so after the worker has stopped: its
     * shutdown observer runs before and waits for the deliveries in flight.
     */
    @PreDestroy
    void close() {
        vertx.close();
    }
}
