package dev.a2atasks.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.a2atasks.proto.v1.ListTasksRequest;
import dev.a2atasks.support.CitusCluster;

/**
 * Table o: the same service on one PostgreSQL and on Citus (a coordinator and two workers on this
 * machine, the schema distributed by owner: {@code a2a.database.distribution=citus}), each with the
 * same dataset, measured in alternating windows: ListTasks page 1 and page 2, GetTask, and
 * SendMessage returnImmediately and blocking, at 1 and 8 clients. The cluster is the tests' own
 * ({@link CitusCluster}: Debian's PostgreSQL 15 with the Citus kit beside the repository).
 *
 * <p>Every node shares this machine's cores with the service and the load: the table shows what a
 * node adds to a request (the coordinator's hop to the worker and its planning), not what more
 * machines would bring.
 */
final class CitusBench {

    private CitusBench() {
    }

    /** The rows, one a measured operation; each database new (an embedded PostgreSQL, a cluster), filled with {@code size}. */
    static Table run(Path java, Dataset.Size size, boolean quick) throws Exception {
        Table table = new Table(String.format("o. One PostgreSQL against Citus (coordinator + 2 workers on this machine, distributed by"
                + " owner), gRPC, dataset of %,d tasks on each, the two measured in alternating windows", size.total()),
                "operation", "clients", "one PostgreSQL req/s", "p50 ms", "p99 ms", "Citus req/s", "p50 ms", "p99 ms", "Citus / one (req/s)");
        CitusCluster cluster = new CitusCluster();
        Map<String, String> config;
        try {
            config = cluster.start();
        } catch (IllegalStateException e) {
            return table.note("Not measured: " + e.getMessage());
        }
        List<Service> services = new ArrayList<>();
        try (Database single = Database.embedded(); Database citus = Database.external(config.get("quarkus.datasource.reactive.url"), config.get("quarkus.datasource.username"),
                config.get("quarkus.datasource.password"))) {
            Map<String, String> env = Bench.serviceEnvironment(single);
            Map<String, String> citusEnv = new HashMap<>(Bench.serviceEnvironment(citus));
            citusEnv.put("A2A_DATABASE_DISTRIBUTION", "citus");
            // One service at a time: the first on a database migrates it (on Citus, and distributes it).
            Side one = new Side(start(services, java, env, "service-one.log"),
                    start(services, java, Bench.sendOnlyEnvironment(env), "service-one-send-only.log"), single);
            Side onCitus = new Side(start(services, java, citusEnv, "service-citus.log"),
                    start(services, java, Bench.sendOnlyEnvironment(citusEnv), "service-citus-send-only.log"), citus);
            System.out.printf("dataset generated in %.1f s on one PostgreSQL, %.1f s on Citus%n", Dataset.generate(single.jdbcUrl(), size),
                    Dataset.generate(citus.jdbcUrl(), size));

            String reader = Clients.token(Bench.PRIVATE_KEY, "bench", "big");
            String writer = Clients.token(Bench.PRIVATE_KEY, "benchc", "writer");
            ListTasksRequest page1 = ListTasksRequest.newBuilder().setPageSize(100).setHistoryLength(0).build();
            Map<String, Function<Side, Supplier<Callable<?>>>> operations = new LinkedHashMap<>();
            operations.put("ListTasks page 1 (pageSize 100)", side -> () -> side.main().grpcList(reader, page1));
            operations.put("ListTasks page 2", side -> {
                String token = secondPageToken(side.main(), reader, page1);
                return () -> side.main().grpcList(reader, page1.toBuilder().setPageToken(token).build());
            });
            operations.put("GetTask (5 messages)", side -> () -> get(side.main(), reader));
            operations.put("SendMessage returnImmediately (the send alone)", side -> () -> WritePath.send(side.sendOnly(), writer, true));
            operations.put("SendMessage blocking (demo agent, 5 updates)", side -> () -> WritePath.send(side.main(), writer, false));

            // The smoke run's windows are long enough for a blocking send on Citus to complete in them.
            Duration warmUp = Duration.ofMillis(quick ? 500 : 1500);
            Duration window = Duration.ofMillis(quick ? 1000 : 4000);
            int rounds = quick ? 1 : 3;
            Map<String, Double> addedP50 = new LinkedHashMap<>();
            for (Map.Entry<String, Function<Side, Supplier<Callable<?>>>> operation : operations.entrySet()) {
                Supplier<Callable<?>> onOne = operation.getValue().apply(one);
                Supplier<Callable<?>> onTheCluster = operation.getValue().apply(onCitus);
                for (int clients : new int[] { 1, 8 }) {
                    Load.Alternation a = Load.alternating(clients, warmUp, window, rounds, onTheCluster, onOne);
                    table.row(operation.getKey(), clients, a.baseline().requestsPerSecond(), a.baseline().p50Ms(), a.baseline().p99Ms(),
                            a.subject().requestsPerSecond(), a.subject().p50Ms(), a.subject().p99Ms(), a.baseline().count() == 0 ? "-" : String.format("%.0f%%", 100 * a.share()));
                    if (clients == 1) {
                        addedP50.put(operation.getKey(), a.subject().p50Ms() - a.baseline().p50Ms());
                    }
                }
            }
            StringBuilder added = new StringBuilder("What the coordinator adds to one request (1 client, p50):");
            addedP50.forEach((name, ms) -> added.append(String.format(" %s %+.2f ms;", name, ms)));
            table.note(added.substring(0, added.length() - 1) + ". A read is one router query (the coordinator plans it and sends it"
                    + " to the worker holding the caller's shard); a write is several router statements in one transaction, each"
                    + " through the coordinator (docs/operations.md, \"Scaling out\"). All nodes share this machine's cores with the services and"
                    + " the load.");
            return table;
        } finally {
            for (Service service : services) {
                service.close();
            }
            cluster.stop();
        }
    }

    /** One database's two services as clients: the demo agent's ({@code main}) and the one whose agent sleeps ({@code sendOnly}). */
    private record Side(Clients main, Clients sendOnly) {
        Side(Service main, Service sendOnly, Database db) {
            this(new Clients("127.0.0.1", main.port, db.jdbcUrl()), new Clients("127.0.0.1", sendOnly.port, db.jdbcUrl()));
        }
    }

    private static Service start(List<Service> services, Path java, Map<String, String> env, String log) throws Exception {
        Service service = Service.start(java, List.of(), env, Bench.OUT.resolve(log));
        services.add(service);
        return service;
    }

    private static String secondPageToken(Clients clients, String bearer, ListTasksRequest page1) {
        try (Clients.Grpc grpc = clients.new Grpc(bearer)) {
            return grpc.list(page1).getNextPageToken();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Clients.Request get(Clients clients, String bearer) {
        Clients.Grpc grpc = clients.new Grpc(bearer);
        return new Clients.Request() {
            @Override
            public Object call() {
                if (grpc.get("hist-5", null).getHistoryCount() != 5) {
                    throw new IllegalStateException("GetTask hist-5: expected 5 messages");
                }
                return null;
            }

            @Override
            public void close() throws InterruptedException {
                grpc.close();
            }
        };
    }
}
