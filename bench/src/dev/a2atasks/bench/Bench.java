package dev.a2atasks.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

import dev.a2atasks.client.GrpcTaskListing;
import dev.a2atasks.client.ListFilter;
import dev.a2atasks.client.TaskWalker;
import dev.a2atasks.client.TranscriptReader;
import dev.a2atasks.proto.history.v1.Direction;
import dev.a2atasks.proto.history.v1.ListTaskMessagesRequest;
import dev.a2atasks.proto.history.v1.ListTaskMessagesResponse;
import dev.a2atasks.client.WalkResult;
import dev.a2atasks.proto.v1.ListTasksRequest;
import dev.a2atasks.proto.v1.ListTasksResponse;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.proto.v1.Task;

/**
 * Runs every benchmark against a freshly started, packaged service on generated data and prints
 * one table per benchmark (see docs/benchmarks.md). Fails on errors, never on timings.
 *
 * <pre>
 * bench/run [--quick] [--db-url postgresql://host:port/db --db-user u --db-password p] [--skip-generate]
 * bench/run --generate-only --db-url ...     (fill a database, e.g. the dev run's, and stop)
 * bench/run --startup-only [--native [PATH]] (only the start-up table; with the native executable beside the JVM)
 * bench/run --push-only                      (only table i, push delivery)
 * bench/run --history-only                   (only tables b and b2, history tails and history paging)
 * bench/run --page1-only                     (only table a2, page 1 against page 2)
 * bench/run --citus-only                     (only table o, one PostgreSQL against a three-node Citus cluster)
 * bench/run --bindings-only                  (only table c and its profile)
 * bench/run --latency-only                   (only table g, event latency)
 * </pre>
 */
public final class Bench {

    static final Path OUT = Path.of("target/bench");
    static final Path PRIVATE_KEY = Path.of("src/test/resources/keys/privateKey.pem");
    private static final Path PUBLIC_KEY = Path.of("src/test/resources/keys/publicKey.pem");
    private static final Path JDK25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");

    private final boolean quick;
    private final Dataset.Size size;
    private final List<Table> tables = new ArrayList<>();
    private final Map<String, String> targets = new LinkedHashMap<>();

    private Bench(boolean quick) {
        this.quick = quick;
        this.size = quick ? Dataset.QUICK : Dataset.DEFAULT;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        Bench bench = new Bench(options.containsKey("quick"));
        try {
            bench.run(options);
            System.exit(0);
        } catch (Throwable e) {
            System.err.println("BENCHMARK FAILED: " + e);
            e.printStackTrace();
            System.exit(1);
        }
    }

    private void run(Map<String, String> options) throws Exception {
        Files.createDirectories(OUT);
        Database db = options.containsKey("db-url")
                ? Database.external(options.get("db-url"), options.getOrDefault("db-user", "postgres"), options.getOrDefault("db-password", ""))
                : Database.embedded();
        if (options.containsKey("generate-only")) {
            System.out.printf("Generated %,d tasks in %.1f s%n", size.total(), Dataset.generate(db.jdbcUrl(), size));
            return;
        }
        int cores = Runtime.getRuntime().availableProcessors();
        System.out.printf("a2a-tasks benchmarks (%s): %d cores, %s, dataset %,d tasks%n", quick ? "--quick" : "default",
                cores, System.getProperty("java.version"), size.total());
        Map<String, String> env = serviceEnvironment(db);
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");

        if (options.containsKey("startup-only")) {
            try (Service migrate = Service.start(java, List.of(), env, OUT.resolve("service.log"))) {
                System.out.println("schema ready");
            }
            startup(env, java, nativeExecutable(options), null); // no dataset: table e3 reads the scope its writes fill
            tables.forEach(t -> System.out.println(t.render()));
            db.close();
            return;
        }
        if (options.containsKey("idle-only")) {
            int minutes = Integer.parseInt(options.getOrDefault("idle-minutes", quick ? "1" : "10"));
            tables.add(IdleSubscribers.run(java, env, OUT.resolve("service.log"), Clients.token(PRIVATE_KEY, "bench", "idle"), minutes, 100));
            tables.forEach(t -> System.out.println(t.render()));
            db.close();
            return;
        }
        if (options.containsKey("streams-only")) {
            List<String> callers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                callers.add(Clients.token(PRIVATE_KEY, "bench", "streams-" + i));
            }
            tables.add(SimultaneousStreams.run(java, env, OUT.resolve("service.log"), callers, quick ? new int[] { 40 } : new int[] { 40, 100, 200 }));
            tables.forEach(t -> System.out.println(t.render()));
            db.close();
            return;
        }
        if (options.containsKey("stalled-only")) {
            tables.add(StalledSubscribers.run(java, env, OUT.resolve("service.log"), Clients.token(PRIVATE_KEY, "bench", "stalled"),
                    db.jdbcUrl(), quick ? 20 : 200));
            tables.forEach(t -> System.out.println(t.render()));
            db.close();
            return;
        }
        if (options.containsKey("page1-only")) {
            try (Service service = Service.start(java, List.of(), env, OUT.resolve("service.log"))) {
                if (!options.containsKey("skip-generate")) {
                    System.out.printf("dataset generated in %.1f s%n", Dataset.generate(db.jdbcUrl(), size));
                }
                firstPage(new Clients("127.0.0.1", service.port, db.jdbcUrl()), Clients.token(PRIVATE_KEY, "bench", "big"));
            }
            tables.forEach(t -> System.out.println(t.render()));
            targets.forEach((name, value) -> System.out.println(name + ": " + value));
            db.close();
            return;
        }
        if (options.containsKey("bindings-only")) {
            try (Service service = Service.start(java, List.of(), env, OUT.resolve("service.log"))) {
                if (!options.containsKey("skip-generate")) {
                    System.out.printf("dataset generated in %.1f s%n", Dataset.generate(db.jdbcUrl(), size));
                }
                bindings(new Clients("127.0.0.1", service.port, db.jdbcUrl()), Clients.token(PRIVATE_KEY, "bench", "big"), cores,
                        service.process.pid());
            }
            tables.forEach(t -> System.out.println(t.render()));
            targets.forEach((name, value) -> System.out.println(name + ": " + value));
            db.close();
            return;
        }
        if (options.containsKey("history-only")) {
            try (Service service = Service.start(java, List.of(), env, OUT.resolve("service.log"))) {
                double seconds = Dataset.generate(db.jdbcUrl(), size);
                System.out.printf("dataset generated in %.1f s%n", seconds);
                Clients clients = new Clients("127.0.0.1", service.port, db.jdbcUrl());
                String big = Clients.token(PRIVATE_KEY, "bench", "big");
                history(clients, big);
                transcript(service.port, big);
            }
            tables.forEach(t -> System.out.println(t.render()));
            targets.forEach((name, value) -> System.out.println(name + ": " + value));
            db.close();
            return;
        }
        if (options.containsKey("flood-only")) {
            tables.add(Flood.run(java, env, OUT.resolve("service-flood-a.log"), OUT.resolve("service-flood-b.log"),
                    Clients.token(PRIVATE_KEY, "bench", "flood"), db.jdbcUrl(), quick ? 500 : 5000));
            tables.forEach(t -> System.out.println(t.render()));
            db.close();
            return;
        }
        if (options.containsKey("push-isolation-only")) {
            try (Service service = Service.start(java, List.of(), env, OUT.resolve("service.log"))) {
                Clients clients = new Clients("127.0.0.1", service.port, db.jdbcUrl());
                tables.add(PushBench.isolation(clients, Clients.token(PRIVATE_KEY, "benchp-hostile", "mallory"),
                        Clients.token(PRIVATE_KEY, "benchp", "pusher"), quick));
            }
            tables.forEach(t -> System.out.println(t.render()));
            db.close();
            return;
        }
        if (options.containsKey("writes-only")) {
            try (Service service = Service.start(java, List.of(), env, OUT.resolve("service.log"))) {
                Clients clients = new Clients("127.0.0.1", service.port, db.jdbcUrl());
                timed("f. SendMessage", () -> sendMessage(env, java, db, service, clients, options.containsKey("profile")));
                timed("g. event latency", () -> eventLatency(env, java, db, clients));
                timed("i. push", () -> tables.add(PushBench.run(clients, Clients.token(PRIVATE_KEY, "benchp", "pusher"), quick)));
                tables.add(new Table("Resident memory of the service after the runs above", "RSS MiB").row(service.rssMiB()));
            }
            tables.forEach(t -> System.out.println(t.render()));
            targets.forEach((name, value) -> System.out.println(name + ": " + value));
            db.close();
            return;
        }
        if (options.containsKey("latency-only")) {
            eventLatency(env, java, db, null);
            tables.forEach(t -> System.out.println(t.render()));
            db.close();
            return;
        }
        if (options.containsKey("citus-only")) {
            tables.add(CitusBench.run(java, quick ? Dataset.QUICK : Dataset.CITUS, quick));
            tables.forEach(t -> System.out.println(t.render()));
            db.close();
            return;
        }
        if (options.containsKey("push-only")) {
            try (Service service = Service.start(java, List.of(), env, OUT.resolve("service.log"))) {
                Clients clients = new Clients("127.0.0.1", service.port, db.jdbcUrl());
                List<Table> profiles = new ArrayList<>();
                System.out.println(PushBench.run(clients, Clients.token(PRIVATE_KEY, "benchp", "pusher"), quick,
                        options.containsKey("profile") ? service.process.pid() : null, profiles).render());
                profiles.forEach(t -> System.out.println(t.render()));
            }
            db.close();
            return;
        }
        try (Service service = Service.start(java, List.of(), env, OUT.resolve("service.log"))) {
            if (!options.containsKey("skip-generate")) {
                double seconds = Dataset.generate(db.jdbcUrl(), size);
                System.out.printf("dataset: %,d tasks, %,d messages generated in %.1f s%n", size.total(),
                        (long) size.total() * size.messagesPerTask() + size.longHistory(), seconds);
            }
            Clients clients = new Clients("127.0.0.1", service.port, db.jdbcUrl());
            String big = Clients.token(PRIVATE_KEY, "bench", "big");
            timed("a. depth", () -> depth(clients, big));
            timed("a2. page 1", () -> firstPage(clients, big));
            timed("b. history", () -> history(clients, big));
            timed("b2. history paging", () -> transcript(service.port, big));
            timed("c. bindings", () -> bindings(clients, big, cores, service.process.pid()));
            timed("d. walk", () -> walk(service, db));
            timed("f. SendMessage", () -> sendMessage(env, java, db, service, clients, false));
            timed("g. event latency", () -> eventLatency(env, java, db, clients));
            timed("i. push", () -> tables.add(PushBench.run(clients, Clients.token(PRIVATE_KEY, "benchp", "pusher"), quick)));
            tables.add(new Table("Resident memory of the service after the runs above", "RSS MiB").row(service.rssMiB()));
        }
        timed("h. operations overhead", () -> operationsOverhead(env, java, Clients.token(PRIVATE_KEY, "bench", "big")));
        timed("e. start-up", () -> startup(env, java, nativeExecutable(options), "big"));
        timed("o. Citus", () -> tables.add(CitusBench.run(java, quick ? Dataset.QUICK : Dataset.CITUS, quick)));

        Table summary = new Table("Targets", "target", "measured", "met");
        targets.forEach((name, value) -> {
            String[] parts = value.split("\\|");
            summary.row(name, parts[0], parts[1]);
        });
        tables.add(summary);
        StringBuilder report = new StringBuilder("## Benchmark results " + LocalDate.now() + " (" + cores + " cores, "
                + (quick ? "bench/run --quick" : "bench/run") + ")\n");
        tables.forEach(t -> report.append(t.render()));
        Files.writeString(OUT.resolve("results.md"), report);
        System.out.println(report);
        System.out.println("(also written to " + OUT.resolve("results.md") + ")");
        db.close();
    }

    private interface Part {
        void run() throws Exception;
    }

    /** Runs one part of the bench and says how long it took (how the smoke run's time is spent). */
    private static void timed(String name, Part part) throws Exception {
        long t0 = System.nanoTime();
        part.run();
        System.out.printf("bench: %s took %.1f s%n", name, (System.nanoTime() - t0) / 1e9);
    }

    // --- a. depth --------------------------------------------------------------------------------

    private void depth(Clients clients, String bearer) throws Exception {
        int[] depths = quick ? new int[] { 100, 1_000, 5_000 } : new int[] { 100, 10_000, 100_000, 500_000 };
        Map<Integer, String> tokens = new HashMap<>();
        long t0 = System.nanoTime();
        try (Clients.Grpc grpc = clients.new Grpc(bearer)) {
            String token = "";
            int position = 0;
            int deepest = depths[depths.length - 1];
            while (position < deepest) { // a genuine walk: every token is one the server issued for that position
                ListTasksResponse page = grpc.list(100, token);
                position += page.getTasksCount();
                token = page.getNextPageToken();
                tokens.put(position, token);
            }
        }
        double walkSeconds = (System.nanoTime() - t0) / 1e9;
        int repeat = quick ? 10 : 60;
        int repeatOffset = quick ? 3 : 15;
        Table table = new Table("a. Depth: ListTasks pageSize 100, historyLength 0, scope of " + String.format("%,d", size.bigTasks()) + " tasks",
                "rows deep", "service p50 ms", "service p99 ms", "keyset SQL p50 ms", "OFFSET SQL p50 ms", "OFFSET SQL p99 ms");
        Map<Integer, Double> service = new LinkedHashMap<>();
        Map<Integer, Double> offset = new LinkedHashMap<>();
        List<Integer> positions = new ArrayList<>(List.of(0));
        for (int d : depths) {
            positions.add(d);
        }
        try (Clients.Grpc grpc = clients.new Grpc(bearer); Connection sql = clients.connect()) {
            for (int depth : positions) {
                String token = depth == 0 ? "" : tokens.get(depth);
                Stats s = Load.repeated(3, repeat, () -> grpc.list(100, token));
                Stats keyset = depth == 0 ? null : Load.repeated(3, repeat, keysetAt(clients, sql, depth));
                Stats off = Load.repeated(1, repeatOffset, clients.sqlOffset("bench", "big", depth));
                service.put(depth, s.p50Ms());
                offset.put(depth, off.p50Ms());
                table.row(depth == 0 ? "0 (page 1, carries the walk's totalSize)" : String.format("%,d", depth), s.p50Ms(), s.p99Ms(),
                        keyset == null ? Double.NaN : keyset.p50Ms(), off.p50Ms(), off.p99Ms());
            }
        }
        int deepest = depths[depths.length - 1];
        double vsPage1 = service.get(deepest) / service.get(0);
        double vsPage2 = service.get(deepest) / service.get(100);
        double offsetRatio = offset.get(deepest) / offset.get(0);
        table.note(String.format("p50 ratio %,d deep / page 1: service %.2f, OFFSET %.1f. Service %,d deep / page 2 "
                + "(the first page whose total comes from the token): %.2f. Reaching %,d deep by a real walk took %.1f s.",
                deepest, vsPage1, offsetRatio, deepest, vsPage2, deepest, walkSeconds));
        tables.add(table);
        targets.put(String.format("depth p50 ratio %,d deep / page 1 <= 1.3 (OFFSET grows)", deepest),
                String.format("%.2f (vs page 2: %.2f; OFFSET %.1f)|%s", vsPage1, vsPage2, offsetRatio,
                        vsPage1 <= 1.3 && vsPage2 <= 1.3 && offsetRatio > 2 ? "yes" : "no"));
    }

    private static Callable<?> keysetAt(Clients clients, Connection sql, int depth) throws Exception {
        try (Statement s = sql.createStatement();
                ResultSet cursor = s.executeQuery("SELECT status_ts, id FROM tasks WHERE tenant = 'bench' AND owner = 'big'"
                        + " ORDER BY status_ts DESC, id DESC OFFSET " + (depth - 1) + " LIMIT 1")) {
            cursor.next();
            return clients.sqlKeyset("bench", "big", cursor.getTimestamp(1).toInstant(), cursor.getString(2));
        }
    }

    // --- a2. page 1 against page 2 ---------------------------------------------------------------

    /**
     * Page 1 carries the walk's totalSize (from the counters: at most 8 rows whatever the scope);
     * page 2 is the keyset statement alone, its total read from the token. Both for the four filter
     * shapes without statusTimestampAfter, on the big scope, measured in alternation; then 8
     * clients on each page, in alternating rounds.
     */
    private void firstPage(Clients clients, String bearer) throws Exception {
        int repeat = quick ? 10 : 300;
        int pageSize = quick ? 25 : 100; // a context holds 1 task in 1,000: 30 in the quick dataset
        ListTasksRequest base = ListTasksRequest.newBuilder().setPageSize(pageSize).setHistoryLength(0).build();
        Map<String, ListTasksRequest> shapes = new LinkedHashMap<>();
        shapes.put("none", base);
        shapes.put("status WORKING", base.toBuilder().setStatus(TaskState.TASK_STATE_WORKING).build());
        shapes.put("contextId ctx-1", base.toBuilder().setContextId("ctx-1").build());
        shapes.put("contextId ctx-1 and status WORKING", base.toBuilder().setContextId("ctx-1").setStatus(TaskState.TASK_STATE_WORKING).build());
        Table table = new Table(String.format("a2. Page 1 (carries the walk's totalSize) against page 2, ListTasks pageSize %d, historyLength 0,"
                + " scope of %,d tasks, gRPC, the two pages measured in alternation", pageSize, size.bigTasks()),
                "filter", "totalSize", "page 1 p50 ms", "page 2 p50 ms", "page 1 / page 2 (p50)", "page 1 p99 ms", "page 2 p99 ms");
        double worst = 0;
        Map<String, ListTasksRequest> seconds = new LinkedHashMap<>();
        try (Clients.Grpc grpc = clients.new Grpc(bearer)) {
            for (Map.Entry<String, ListTasksRequest> shape : shapes.entrySet()) {
                ListTasksResponse first = grpc.list(shape.getValue());
                if (first.getTasksCount() != pageSize || first.getNextPageToken().isEmpty()) {
                    throw new IllegalStateException(shape.getKey() + ": page 1 returned " + first.getTasksCount() + " tasks");
                }
                ListTasksRequest second = shape.getValue().toBuilder().setPageToken(first.getNextPageToken()).build();
                seconds.put(shape.getKey(), second);
                List<Stats> s = Load.interleaved(quick ? 3 : 20, repeat, List.of(() -> grpc.list(shape.getValue()), () -> grpc.list(second)));
                double ratio = s.get(0).p50Ms() / s.get(1).p50Ms();
                worst = Math.max(worst, ratio);
                table.row(shape.getKey(), String.format("%,d", first.getTotalSize()), s.get(0).p50Ms(), s.get(1).p50Ms(),
                        String.format("%.2f", ratio), s.get(0).p99Ms(), s.get(1).p99Ms());
            }
        }
        Duration warmUp = Duration.ofMillis(quick ? 200 : 1500);
        Duration measure = Duration.ofMillis(quick ? 300 : 4000);
        int rounds = quick ? 1 : 3;
        Load.Alternation pages = Load.alternating(8, warmUp, measure, rounds, () -> clients.grpcList(bearer, base),
                () -> clients.grpcList(bearer, seconds.get("none")));
        double page1 = pages.subject().requestsPerSecond();
        double page2 = pages.baseline().requestsPerSecond();
        double share = pages.share();
        table.note(String.format("8 clients, no filter, %d alternating rounds: page 1 %.0f req/s, page 2 %.0f req/s (page 1 / page 2: %.0f%%).",
                rounds, page1, page2, 100 * share));
        tables.add(table);
        targets.put(String.format("page 1 p50 / page 2 p50 <= 1.3 at a %,d-task scope, 4 filter shapes", size.bigTasks()),
                String.format("%.2f (the highest of the four)|%s", worst, worst <= 1.3 ? "yes" : "no"));
        targets.put("8-client page-1 req/s >= 80% of page 2", String.format("%.0f%%|%s", 100 * share, share >= 0.8 ? "yes" : "no"));
    }

    // --- b. history ------------------------------------------------------------------------------

    private void history(Clients clients, String bearer) throws Exception {
        int repeat = quick ? 10 : 200;
        Table table = new Table("b. History: GetTask", "task", "historyLength", "messages returned", "p50 ms", "p99 ms");
        Map<String, Double> p50 = new HashMap<>();
        try (Clients.Grpc grpc = clients.new Grpc(bearer)) {
            for (String id : List.of("hist-5", "hist-long")) {
                for (Integer length : new Integer[] { 5, null }) {
                    int returned = grpc.get(id, length).getHistoryCount();
                    if (length != null && returned != 5) {
                        throw new IllegalStateException(id + " returned " + returned + " messages for historyLength 5");
                    }
                    Stats s = Load.repeated(10, repeat, () -> grpc.get(id, length));
                    String label = id.equals("hist-5") ? "5 messages" : String.format("%,d messages", size.longHistory());
                    table.row(label, length == null ? "unset (default 20)" : length, returned, s.p50Ms(), s.p99Ms());
                    p50.put(id + length, s.p50Ms());
                }
            }
        }
        double ratio = p50.get("hist-long5") / p50.get("hist-55");
        table.note(String.format("p50 ratio %,d messages / 5 messages at historyLength 5: %.2f", size.longHistory(), ratio));
        tables.add(table);
        targets.put(String.format("history p50 ratio (%,d / 5 messages) <= 1.3", size.longHistory()),
                String.format("%.2f|%s", ratio, ratio <= 1.3 ? "yes" : "no"));
    }

    // --- b2. history paging ----------------------------------------------------------------------

    /**
     * ListTaskMessages (history-paging extension) through the client's gRPC listing, on the task
     * with the long transcript: one page of 100 from the first, the middle and the last hundred
     * messages, measured in alternation; then the whole transcript read by the client's reader, both ways.
     */
    private void transcript(int port, String bearer) throws Exception {
        int repeat = quick ? 10 : 200;
        int n = size.longHistory();
        long[] starts = { 0, n / 2, n - 100 };
        Table table = new Table(String.format("b2. History paging: ListTaskMessages pageSize 100, oldest first, on the %,d-message"
                + " task (gRPC, the client's listing, extension declared)", n), "page starts at seq", "messages returned", "p50 ms", "p99 ms");
        Map<Long, Double> p50 = new HashMap<>();
        try (GrpcTaskListing remote = new GrpcTaskListing("127.0.0.1:" + port, true, () -> bearer, Duration.ofSeconds(60))) {
            List<Callable<?>> calls = new ArrayList<>();
            for (long start : starts) {
                ListTaskMessagesRequest request = ListTaskMessagesRequest.newBuilder().setTaskId("hist-long").setPageSize(100)
                        .setDirection(Direction.DIRECTION_OLDEST_FIRST).setStartSeq(start).build();
                ListTaskMessagesResponse page = remote.listMessages(request);
                if (page.getMessagesCount() != 100 || page.getMessages(0).getSeq() != start) {
                    throw new IllegalStateException("ListTaskMessages from seq " + start + " returned " + page.getMessagesCount()
                            + " messages");
                }
                calls.add(() -> remote.listMessages(request));
            }
            List<Stats> measured = Load.interleaved(10, repeat, calls); // the three depths alternate, so drift hits all alike
            for (int i = 0; i < starts.length; i++) {
                table.row(String.format("%,d", starts[i]), 100, measured.get(i).p50Ms(), measured.get(i).p99Ms());
                p50.put(starts[i], measured.get(i).p50Ms());
            }
            TranscriptReader reader = new TranscriptReader(remote, 100);
            for (Direction direction : List.of(Direction.DIRECTION_OLDEST_FIRST, Direction.DIRECTION_NEWEST_FIRST)) {
                long t0 = System.nanoTime();
                TranscriptReader.ReadResult read = reader.read("", "hist-long", direction, null, page -> { });
                if (read.messages() != n) {
                    throw new IllegalStateException("the reader read " + read.messages() + " of " + n + " messages");
                }
                table.note(String.format("The whole transcript %s by the client's reader: %,d pages in %.1f s.",
                        direction == Direction.DIRECTION_OLDEST_FIRST ? "oldest first" : "newest first", read.pages(),
                        (System.nanoTime() - t0) / 1e9));
            }
        }
        double ratio = p50.get(starts[2]) / p50.get(starts[0]);
        table.note(String.format("p50 ratio seq %,d / seq 0: %.2f. The page at seq 0 also seals a next-page token; the last"
                + " page has none to seal.", starts[2], ratio));
        tables.add(table);
        targets.put(String.format("history paging p50 ratio (seq %,d / seq 0) <= 1.2", starts[2]),
                String.format("%.2f|%s", ratio, ratio <= 1.2 ? "yes" : "no"));
    }

    // --- c. bindings -----------------------------------------------------------------------------

    private void bindings(Clients clients, String bearer, int cores, long servicePid) throws Exception {
        Duration window = Duration.ofMillis(quick ? 300 : 3000);
        int rounds = quick ? 1 : 3;
        int[] concurrency = quick ? new int[] { 1, 8 } : new int[] { 1, 8, 32 };
        String page2;
        Instant cursorTs;
        String cursorId;
        try (Clients.Grpc grpc = clients.new Grpc(bearer)) {
            ListTasksResponse first = grpc.list(100, "");
            page2 = first.getNextPageToken();
            Task last = first.getTasks(99);
            cursorTs = Instant.ofEpochSecond(last.getStatus().getTimestamp().getSeconds(), last.getStatus().getTimestamp().getNanos());
            cursorId = last.getId();
        }
        Table table = new Table("c. Bindings: ListTasks pageSize 100, historyLength 0 (page 2: the keyset query, no COUNT), loopback, "
                + cores + " cores shared by clients, service and PostgreSQL; each binding warmed to a steady rate, then measured"
                + " in alternation with the SQL floor",
                "binding", "clients", "req/s", "p50 ms", "p99 ms", "SQL floor req/s", "throughput / SQL floor");
        Supplier<Callable<?>> floor = () -> unchecked(() -> clients.sqlKeyset("bench", "big", cursorTs, cursorId));
        Map<String, Supplier<Callable<?>>> bindings = new LinkedHashMap<>();
        bindings.put("gRPC", () -> clients.grpcList(bearer, page2));
        bindings.put("HTTP+JSON", () -> clients.httpList(bearer, page2));
        bindings.put("JSON-RPC", () -> clients.jsonRpcList(bearer, page2));
        // Warm-up at 8 clients, where requests come fastest, until each path runs at a steady rate.
        // (The smoke run only passes through: one short window each instead of waiting for a steady rate.)
        long minRequests = quick ? 0 : 40_000;
        List<String> warmUps = new ArrayList<>();
        if (quick) {
            Load.timed(8, Duration.ZERO, window, floor);
            for (Map.Entry<String, Supplier<Callable<?>>> binding : bindings.entrySet()) {
                Load.timed(8, Duration.ZERO, window, binding.getValue());
                warmUps.add(binding.getKey() + " one window (smoke run)");
            }
        } else {
            Load.steady(8, window, floor, minRequests);
            for (Map.Entry<String, Supplier<Callable<?>>> binding : bindings.entrySet()) {
                warmUps.add(String.format("%s %.0f s", binding.getKey(), Load.steady(8, window, binding.getValue(), minRequests)));
            }
        }
        for (int c : concurrency) {
            for (Map.Entry<String, Supplier<Callable<?>>> binding : bindings.entrySet()) {
                Load.timed(c, Duration.ZERO, window, binding.getValue()); // this concurrency's connections and pool
                Load.Alternation measured = Load.alternating(c, Duration.ZERO, window, rounds, binding.getValue(), floor);
                Stats s = measured.subject();
                table.row(binding.getKey(), c, s.requestsPerSecond(), s.p50Ms(), s.p99Ms(),
                        measured.baseline().requestsPerSecond(), String.format("%.0f%%", 100 * measured.share()));
                if (c == 8 && binding.getKey().equals("gRPC")) {
                    targets.put("gRPC throughput >= 50% of the SQL floor at 8 clients",
                            String.format("%.0f%%|%s", 100 * measured.share(), measured.share() >= 0.5 ? "yes" : "no"));
                    targets.put("p99 at 8 clients < 20 ms (gRPC, pageSize 100)",
                            String.format("%.1f ms|%s", s.p99Ms(), s.p99Ms() < 20 ? "yes" : "no"));
                }
            }
            if (c == 8) {
                tables.add(Profile.during(servicePid, "gRPC ListTasks, 8 clients", OUT.resolve("grpc-8-clients.jfr"),
                        () -> Load.timed(8, Duration.ZERO, window.multipliedBy(2), bindings.get("gRPC"))));
            }
        }
        table.note("The SQL floor sends the service's page statement straight to PostgreSQL over JDBC, one connection"
                + " per client thread, with the same plan_cache_mode; the service pool has 20 connections.");
        table.note(String.format("Method: first the floor and then each binding run at 8 clients in %.0f s windows until they"
                + " have served %,d requests and three windows in a row are within 5%% of their mean (the JIT has compiled"
                + " the path; at most %d windows). That took: %s. Then, per row, %d rounds of one floor window and one binding"
                + " window alternate, so a change of this shared machine's speed touches both sides. req/s and the share"
                + " are totals over the rounds; p50 is the median of the rounds' p50s, p99 the highest p99.",
                window.toMillis() / 1000.0, minRequests, Load.MAX_WARM_UP_WINDOWS, String.join(", ", warmUps), rounds));
        tables.add(table);
    }

    private static Callable<?> unchecked(Callable<Callable<?>> make) {
        try {
            return make.call();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    // --- h. operations overhead --------------------------------------------------------------------

    /**
     * Two more service processes on the same data, one with the service's metrics and rate limiting
     * on, one with both off, measured in alternation (ABAB...) at 8 clients on page 2. The limits
     * are raised so that nothing is refused: the table measures what the bookkeeping costs (a
     * bucket per request, all 8 clients on one caller's bucket, a timer and counters per page).
     */
    private void operationsOverhead(Map<String, String> env, Path java, String bearer) throws Exception {
        Map<String, String> on = new HashMap<>(env);
        on.put("A2A_METRICS_ENABLED", "true");
        on.put("A2A_RATE_LIMIT_ENABLED", "true");
        on.put("A2A_RATE_LIMIT_PAGE_BURST", "1000000");
        on.put("A2A_RATE_LIMIT_PAGE_PER_SECOND", "1000000");
        Map<String, String> off = new HashMap<>(env);
        off.put("A2A_METRICS_ENABLED", "false");
        off.put("A2A_RATE_LIMIT_ENABLED", "false");
        Duration warmUp = Duration.ofMillis(quick ? 100 : 1500);
        Duration measure = Duration.ofMillis(quick ? 300 : 4000);
        int rounds = quick ? 1 : 5;
        List<Service> pair = Service.startBoth(() -> Service.start(java, List.of(), on, OUT.resolve("service-ops-on.log")),
                () -> Service.start(java, List.of(), off, OUT.resolve("service-ops-off.log")));
        try (Service withOps = pair.get(0); Service without = pair.get(1)) {
            Clients a = new Clients("127.0.0.1", withOps.port, "");
            Clients b = new Clients("127.0.0.1", without.port, "");
            String page2;
            try (Clients.Grpc grpc = a.new Grpc(bearer)) {
                page2 = grpc.list(100, "").getNextPageToken(); // the key ring is shared: the token opens on both
            }
            // Both processes start cold: warm each on both bindings first, so the rounds compare compiled code.
            Duration jit = Duration.ofMillis(quick ? 300 : 8000);
            for (Clients target : List.of(a, b)) {
                Load.timed(8, Duration.ZERO, jit, () -> target.grpcList(bearer, page2));
                Load.timed(8, Duration.ZERO, jit, () -> target.httpList(bearer, page2));
            }
            Map<String, double[]> rates = new LinkedHashMap<>(); // binding -> {on, off}, summed over rounds
            for (int round = 0; round < rounds; round++) {
                for (String binding : List.of("gRPC", "HTTP+JSON")) {
                    for (int side = 0; side < 2; side++) {
                        Clients target = side == 0 ? a : b;
                        Stats s = Load.timed(8, warmUp, measure, binding.equals("gRPC") ? () -> target.grpcList(bearer, page2)
                                : () -> target.httpList(bearer, page2));
                        rates.computeIfAbsent(binding, k -> new double[2])[side] += s.requestsPerSecond() / rounds;
                    }
                }
            }
            Table table = new Table("h. Operations overhead: ListTasks page 2 (pageSize 100), 8 clients, metrics and rate limiting"
                    + " on vs off, two warmed-up service processes measured in alternation (" + rounds + " rounds)",
                    "binding", "on req/s", "off req/s", "on / off");
            double worst = Double.MAX_VALUE;
            for (Map.Entry<String, double[]> r : rates.entrySet()) {
                double ratio = r.getValue()[0] / r.getValue()[1];
                worst = Math.min(worst, ratio);
                table.row(r.getKey(), r.getValue()[0], r.getValue()[1], String.format("%.0f%%", 100 * ratio));
            }
            table.note("On: a2a.metrics.enabled=true and a2a.rate-limit.enabled=true with the page limit raised so that no request is"
                    + " refused (all 8 clients share one caller's bucket). Off: both false. Same database, same data, same key ring.");
            tables.add(table);
            targets.put("throughput with metrics and rate limiting on >= 95% of off (8 clients, page 2)",
                    String.format("%.0f%%|%s", 100 * worst, worst >= 0.95 ? "yes" : "no"));
        }
    }

    // --- f. SendMessage ---------------------------------------------------------------------------

    /**
     * Table f, with a second service for the sends alone: its demo agent waits 10 minutes before
     * its first step, its runs may queue far past the default, and its leases outlast the run; its
     * tasks, and the floor's, are deleted when it stops, so no sweeper ever sees them.
     */
    private void sendMessage(Map<String, String> env, Path java, Database db, Service service, Clients clients, boolean profile)
            throws Exception {
        Map<String, String> sleeping = sendOnlyEnvironment(env);
        List<Table> profiles = new ArrayList<>();
        try (Service sendOnly = Service.start(java, List.of(), sleeping, OUT.resolve("service-send-only.log"))) {
            tables.add(WritePath.sendMessage(clients, new Clients("127.0.0.1", sendOnly.port, db.jdbcUrl()),
                    Clients.token(PRIVATE_KEY, "benchw", "writer"), Clients.token(PRIVATE_KEY, "benchs", "sender"), quick,
                    profile ? service.process.pid() : 0, profile ? sendOnly.process.pid() : 0, profiles));
        } finally {
            try (Connection c = clients.connect(); Statement s = c.createStatement()) {
                s.execute("DELETE FROM tasks WHERE tenant = 'benchs' OR (tenant = 'benchw' AND owner = 'floor')");
            }
        }
        tables.addAll(profiles);
    }

    // --- g. event latency -------------------------------------------------------------------------

    /**
     * Two more service processes whose demo agent pauses 50 ms per step, so subscribers follow runs
     * live. Each pairing is measured twice: the first tasks after the processes started (their
     * code still interpreted or being compiled, as a replica just scaled up meets its first
     * subscribers), then as many again (the steady state).
     */
    private void eventLatency(Map<String, String> env, Path java, Database db, Clients main) throws Exception {
        Map<String, String> slow = WritePath.withStepDelay(env, "50ms");
        int tasks = quick ? 5 : 100;
        String bearer = Clients.token(PRIVATE_KEY, "benchl", "listener");
        // The subscribers' process needs no slow agent: the smoke run uses the main service for it, the
        // default run a fresh one beside the agent's.
        List<Service> started = quick && main != null ? List.of(Service.start(java, List.of(), slow, OUT.resolve("service-b.log")))
                : Service.startBoth(() -> Service.start(java, List.of(), slow, OUT.resolve("service-b.log")),
                        () -> Service.start(java, List.of(), slow, OUT.resolve("service-c.log")));
        try (Service b = started.get(0); Service c = started.size() > 1 ? started.get(1) : null) {
            Clients onB = new Clients("127.0.0.1", b.port, db.jdbcUrl());
            Clients onC = c != null ? new Clients("127.0.0.1", c.port, db.jdbcUrl()) : main;
            Stats localCold = WritePath.eventLatency(onB, onB, bearer, tasks);
            Stats remoteCold = WritePath.eventLatency(onB, onC, bearer, tasks);
            int warmUp = WritePath.eventLatencyWarmUp(onB, onC, bearer, quick ? 2 : 8, tasks / 2);
            Stats local = WritePath.eventLatency(onB, onB, bearer, tasks);
            Stats remote = WritePath.eventLatency(onB, onC, bearer, tasks);
            Table table = new Table("g. Event latency: an agent's status update (its commit-time timestamp) to its arrival at a gRPC"
                    + " subscriber, " + tasks + " tasks a row, one at a time", "agent and subscriber", "tasks", "updates", "p50 ms", "p99 ms");
            table.row("one process (in-process wake-up)", "first " + tasks + " after start", localCold.count(), localCold.p50Ms(),
                    localCold.p99Ms());
            table.row("two processes (LISTEN/NOTIFY)", "first " + tasks + " after start", remoteCold.count(), remoteCold.p50Ms(),
                    remoteCold.p99Ms());
            String warmed = tasks + " after " + warmUp + " more";
            table.row("one process (in-process wake-up)", warmed, local.count(), local.p50Ms(), local.p99Ms());
            table.row("two processes (LISTEN/NOTIFY)", warmed, remote.count(), remote.p50Ms(), remote.p99Ms());
            table.note("Measured from the status timestamp the writer sets just before its commit; the same clock on both"
                    + " sides (one machine). The rows in the order they ran. Without a wake-up, streams re-read only every"
                    + " a2a.stream.safety-poll-interval (30 s) while the LISTEN connection is up.");
            tables.add(table);
        }
    }

    // --- d. walk ---------------------------------------------------------------------------------

    private void walk(Service service, Database db) throws Exception {
        String bearer = Clients.token(PRIVATE_KEY, "bench", "walker");
        try (GrpcTaskListing listing = new GrpcTaskListing("127.0.0.1:" + service.port, true, () -> bearer, Duration.ofSeconds(60))) {
            WalkResult result = new TaskWalker(listing).listAll(ListFilter.all().withPageSize(100));
            if (result.tasks().size() != size.walkTasks()) {
                throw new IllegalStateException("walk returned " + result.tasks().size() + " of " + size.walkTasks());
            }
            var s = result.stats();
            tables.add(new Table("d. Walk: TaskWalker.listAll (gRPC, pageSize 100, catch-up on) of a " + String.format("%,d", size.walkTasks())
                    + "-task scope", "pages", "rows", "catch-up rows", "token errors", "seconds", "tasks/s")
                    .row(s.pages(), s.rows(), s.catchUpRows(), s.tokenErrors(), s.duration().toMillis() / 1000.0,
                            result.tasks().size() / (s.duration().toMillis() / 1000.0)));
        }
    }

    // --- e. start-up -----------------------------------------------------------------------------

    /** The native executable to measure beside the JVM: {@code --native PATH}, or {@code --native} for the build's default path. */
    private static Path nativeExecutable(Map<String, String> options) {
        String value = options.get("native");
        if (value == null) {
            return null;
        }
        Path path = value.equals("true") ? Path.of("target/a2a-tasks-0.1.0-SNAPSHOT-runner") : Path.of(value);
        if (!Files.isExecutable(path)) {
            throw new IllegalArgumentException("--native: no executable at " + path + " (build it: docs/operations.md, \"Native\")");
        }
        return path;
    }

    /**
     * Start-up to the first answer, schema already migrated: as the service starts by default
     * (migrating at start-up: Flyway checks the schema over JDBC), and as a serverless replica
     * starts (QUARKUS_FLYWAY_MIGRATE_AT_START=false: one query checks the schema), on JDK 17, with
     * AppCDS, on JDK 25 and with the AOT cache the JVM image trains (src/main/docker/aot-train.sh,
     * on the request path against the database); then where the time goes (Quarkus' own start-up
     * step timings).
     */
    private void startup(Map<String, String> env, Path jdk17, Path nativeExecutable, String readScope) throws Exception {
        int runs = quick ? 1 : 3;
        Map<String, String> serverless = new HashMap<>(env);
        serverless.put("QUARKUS_FLYWAY_MIGRATE_AT_START", "false");
        Table table = new Table("e. Start-up of the packaged application to its first served request (Agent Card), median of "
                + runs + ", schema already migrated", "application", "start-up ms", "RSS MiB after first request",
                (quick ? "RSS MiB after 100 ListTasks" : "RSS MiB after 1,000 ListTasks"));
        String jdk = "JDK " + System.getProperty("java.specification.version");
        if (!quick) { // the smoke run starts each kind of process once: this row differs from the next by its env only
            startups(table, jdk + ", migrating at start-up (the default)", env, runs, log -> Service.start(jdk17, List.of(), env, log));
        }
        // The smoke run reads table e2's step times from this start instead of starting once more for them.
        Path stepsLog = OUT.resolve("service-startup-steps.log");
        double plain = startups(table, jdk + ", QUARKUS_FLYWAY_MIGRATE_AT_START=false", serverless, runs, log -> quick
                ? Service.start(jdk17, List.of("-Dquarkus.debug.print-startup-times=true"), serverless, stepsLog)
                : Service.start(jdk17, List.of(), serverless, log));
        Path appCds = Path.of("target/quarkus-app/app-cds.jsa").toAbsolutePath();
        if (!quick && Files.exists(appCds)) { // the smoke run builds no archive (bench/run)
            startups(table, jdk + " + AppCDS (quarkus.package.jar.appcds), no migration", serverless, runs,
                    log -> Service.start(jdk17, List.of("-XX:SharedArchiveFile=" + appCds), serverless, log));
        }
        targets.put("JVM (" + jdk + ") start-up to first request <= 3 s, migrated database", String.format("%.0f ms|%s", plain, plain <= 3000 ? "yes" : "no"));
        // The JVM flags docs/operations.md offers short-lived replicas: less JIT and GC work while the service starts,
        // at a cost in steady throughput that table e4 measures.
        double shortLived = startups(table, jdk + " + " + String.join(" ", SHORT_LIVED_FLAGS) + ", no migration", serverless, runs,
                log -> Service.start(jdk17, SHORT_LIVED_FLAGS, serverless, log));
        table.note(String.format("%s starts the service in %.0f%% of the time of %s without them.", String.join(" ", SHORT_LIVED_FLAGS),
                100 * shortLived / plain, jdk));
        Path dynamicCds = OUT.resolve("app-dyn.jsa").toAbsolutePath();
        if (train(jdk17, dynamicCds, env)) {
            double cds = startups(table, jdk + " + dynamic CDS archive trained on the request path (aot-train.sh CACHE.jsa), no migration",
                    serverless, runs, log -> Service.start(jdk17, List.of("-XX:SharedArchiveFile=" + dynamicCds), serverless, log));
            targets.put("JVM (" + jdk + ") + its trained CDS archive start-up to first request <= 3 s",
                    String.format("%.0f ms|%s", cds, cds <= 3000 ? "yes" : "no"));
        } else {
            table.note("The " + jdk + " CDS training run failed (see target/bench/service-app-dyn.jsa-training.log).");
        }
        if (Files.isExecutable(JDK25)) {
            if (!quick) { // the smoke run's JDK 25 start is the AOT row's
                startups(table, "JDK 25, no migration", serverless, runs, log -> Service.start(JDK25, List.of(), serverless, log));
            }
            Path cache = OUT.resolve("app.aot").toAbsolutePath();
            if (train(JDK25, cache, env)) {
                double aot = startups(table, "JDK 25 + AOT cache (src/main/docker/aot-train.sh, as Dockerfile.jvm), no migration", serverless, runs,
                        log -> Service.start(JDK25, List.of("-XX:AOTCache=" + cache), serverless, log));
                table.note(String.format("The AOT cache (JEP 483/514), trained by one run on the request path against the database, starts the service in %.0f%%"
                        + " of the time of %s without migration.", 100 * aot / plain, jdk));
                targets.put("JDK 25 + AOT cache start-up to first request <= 1.5 s", String.format("%.0f ms|%s", aot, aot <= 1500 ? "yes" : "no"));
            } else {
                table.note("The AOT training run failed (see target/bench/service-app.aot-training.log).");
            }
        } else {
            table.note("No JDK 25 at " + JDK25 + ": AOT cache not measured.");
        }
        if (nativeExecutable != null) {
            double nat = startups(table, "native executable (" + nativeExecutable.getFileName() + "), no migration", serverless, runs,
                    log -> Service.startNative(nativeExecutable, serverless, log));
            table.note(String.format("The native executable starts the service in %.1f%% of the JVM's time (%s).", 100 * nat / plain, jdk));
            targets.put("native start-up to first request <= 0.2 s, migrated database", String.format("%.0f ms|%s", nat, nat <= 200 ? "yes" : "no"));
        } else {
            table.note("No native executable measured (bench/run --native [PATH]).");
        }
        tables.add(table);
        tables.add(quick ? startupSteps(stepsLog, (long) plain) : startupSteps(jdk17, serverless));
        if (nativeExecutable != null) {
            tables.add(nativeAgainstJvm(jdk17, nativeExecutable, serverless, readScope));
        }
        tables.add(shortLivedAgainstJvm(jdk17, serverless));
    }

    /** The JVM flags for short-lived replicas (docs/operations.md, "Migrations and start-up"): C1 only, the serial collector. */
    static final List<String> SHORT_LIVED_FLAGS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    /**
     * Table e4: what the short-lived flags cost once started, the JVM application with them against
     * itself without them, side by side and in alternation, as table e3 measures the native executable.
     */
    private Table shortLivedAgainstJvm(Path jdk17, Map<String, String> env) throws Exception {
        Duration warmUp = quick ? Duration.ofMillis(500) : Duration.ofSeconds(10);
        Duration window = quick ? Duration.ofMillis(500) : Duration.ofSeconds(5);
        int rounds = quick ? 1 : 3;
        String flags = String.join(" ", SHORT_LIVED_FLAGS);
        Table table = new Table("e4. Steady state, the JVM application (JDK " + System.getProperty("java.specification.version")
                + ") with " + flags + " against it without them, 8 gRPC clients, side by side and measured in alternation ("
                + rounds + " rounds of " + window.toSeconds() + " s, each after " + warmUp.toSeconds() + " s unmeasured)",
                "operation", "default req/s", "with the flags req/s", "flags / default", "default p50 / p99 ms", "with the flags p50 / p99 ms");
        try (Service jvm = Service.start(jdk17, List.of(), env, OUT.resolve("service-e4-default.log"));
                Service flagged = Service.start(jdk17, SHORT_LIVED_FLAGS, env, OUT.resolve("service-e4-flags.log"))) {
            compareSteady(table, new Clients("127.0.0.1", jvm.port, null), new Clients("127.0.0.1", flagged.port, null), warmUp, window, rounds,
                    null);
        }
        table.note("Both processes run at once on the same 2 cores and PostgreSQL; the one not measured is idle meanwhile.");
        return table;
    }

    /**
     * One write (SendMessage returnImmediately, a new task each) and one read (ListTasks page 1, pageSize 100), the
     * subject against the baseline. The read lists {@code readScope}, or when it is null the scope the writes just filled
     * (--startup-only generates no dataset).
     */
    private static void compareSteady(Table table, Clients baseline, Clients subject, Duration warmUp, Duration window, int rounds,
            String readScope) throws Exception {
        String writer = Clients.token(PRIVATE_KEY, "bench", "e3-writes");
        String reader = readScope == null ? writer : Clients.token(PRIVATE_KEY, "bench", readScope);
        Load.Alternation writes = Load.alternating(8, warmUp, window, rounds,
                () -> WritePath.send(subject, writer, true), () -> WritePath.send(baseline, writer, true));
        if (readScope == null) { // a full first page to read, however short the write windows were
            try (Clients.Request send = (Clients.Request) WritePath.send(baseline, writer, true)) {
                for (int i = 0; i < 100; i++) {
                    send.call();
                }
            }
        }
        row(table, "ListTasks page 1 (read" + (readScope == null ? ", the writes' scope" : "") + ")", Load.alternating(8, warmUp, window, rounds,
                () -> subject.grpcList(reader, ""), () -> baseline.grpcList(reader, "")));
        row(table, "SendMessage returnImmediately (write)", writes);
    }

    /**
     * One training run of src/main/docker/aot-train.sh on the request path against this database,
     * as Dockerfile.jvm trains against its scratch one: an AOT cache ({@code .aot}, JDK 25) or a
     * dynamic CDS archive ({@code .jsa}). From the application's directory with the jar's relative
     * name: the class path the measured starts use (Service.start), as the image runs from /deployments.
     */
    private boolean train(Path java, Path cache, Map<String, String> env) throws Exception {
        Files.deleteIfExists(cache);
        ProcessBuilder trainer = new ProcessBuilder("bash", Path.of("src/main/docker/aot-train.sh").toAbsolutePath().toString(),
                cache.toString(), java.toString(), "-jar", "quarkus-run.jar")
                .directory(Path.of("target/quarkus-app").toFile()).redirectErrorStream(true)
                .redirectOutput(OUT.resolve("service-" + cache.getFileName() + "-training.log").toAbsolutePath().toFile());
        trainer.environment().put("AOT_TRAINING_DB_URL", env.get("QUARKUS_DATASOURCE_REACTIVE_URL"));
        trainer.environment().put("AOT_TRAINING_DB_USER", env.get("QUARKUS_DATASOURCE_USERNAME"));
        trainer.environment().put("AOT_TRAINING_DB_PASSWORD", env.get("QUARKUS_DATASOURCE_PASSWORD"));
        if (quick) {
            trainer.environment().put("AOT_TRAINING_ROUNDS", "2"); // the smoke run passes through the training once
        }
        return trainer.start().waitFor() == 0 && Files.exists(cache);
    }

    /**
     * Table e3: the steady state of the native executable against the JVM application (the one
     * without JIT against the one with), both running side by side on the same database and
     * measured in alternation at 8 clients over gRPC: one read (ListTasks page 1, pageSize 100, of
     * {@code readScope}, the large scope of the full run's dataset, or the writes' own scope when
     * there is none) and one write (SendMessage returnImmediately, a new task each).
     */
    private Table nativeAgainstJvm(Path jdk17, Path nativeExecutable, Map<String, String> env, String readScope) throws Exception {
        Duration warmUp = quick ? Duration.ofMillis(500) : Duration.ofSeconds(10);
        Duration window = quick ? Duration.ofMillis(500) : Duration.ofSeconds(5);
        int rounds = quick ? 1 : 3;
        Table table = new Table("e3. Steady state, native executable against the JVM application (JDK "
                + System.getProperty("java.specification.version") + "), 8 gRPC clients, side by side and measured in alternation ("
                + rounds + " rounds of " + window.toSeconds() + " s, each after " + warmUp.toSeconds() + " s unmeasured)",
                "operation", "JVM req/s", "native req/s", "native / JVM", "JVM p50 / p99 ms", "native p50 / p99 ms");
        try (Service jvm = Service.start(jdk17, List.of(), env, OUT.resolve("service-e3-jvm.log"));
                Service nat = Service.startNative(nativeExecutable, env, OUT.resolve("service-e3-native.log"))) {
            compareSteady(table, new Clients("127.0.0.1", jvm.port, null), new Clients("127.0.0.1", nat.port, null), warmUp, window, rounds, readScope);
        }
        table.note("Both processes run at once on the same 2 cores and PostgreSQL; the one not measured is idle meanwhile.");
        return table;
    }

    private static void row(Table table, String operation, Load.Alternation measured) {
        Stats jvm = measured.baseline();
        Stats nat = measured.subject();
        table.row(operation, Table.format(jvm.requestsPerSecond()), Table.format(nat.requestsPerSecond()),
                String.format("%.2f", nat.requestsPerSecond() / jvm.requestsPerSecond()),
                String.format("%.1f / %.1f", jvm.p50Ms(), jvm.p99Ms()), String.format("%.1f / %.1f", nat.p50Ms(), nat.p99Ms()));
    }

    /** Quarkus' start-up steps (quarkus.debug.print-startup-times) of one JDK 17 start without migration: the largest, and their sum. */
    private static Table startupSteps(Path jdk17, Map<String, String> serverless) throws Exception {
        Path log = OUT.resolve("service-startup-steps.log");
        long wall;
        try (Service s = Service.start(jdk17, List.of("-Dquarkus.debug.print-startup-times=true"), serverless, log)) {
            wall = s.startupMillis;
        }
        return startupSteps(log, wall);
    }

    /** Table e2 from the log of a start made with quarkus.debug.print-startup-times, which took {@code wall} ms. */
    private static Table startupSteps(Path log, long wall) throws Exception {
        java.util.regex.Pattern step = java.util.regex.Pattern.compile("Build step (\\S+) completed in: (\\d+)ms");
        Map<String, Long> steps = new LinkedHashMap<>();
        for (String line : Files.readAllLines(log)) {
            java.util.regex.Matcher m = step.matcher(line);
            if (m.find()) {
                steps.merge(m.group(1), Long.parseLong(m.group(2)), Long::sum);
            }
        }
        long sum = steps.values().stream().mapToLong(Long::longValue).sum();
        Table table = new Table("e2. Where start-up goes: Quarkus' start-up steps of one JDK 17 start without migration"
                + " (quarkus.debug.print-startup-times)", "step", "ms", "share of the steps");
        steps.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(10)
                .forEach(e -> table.row(e.getKey(), e.getValue(), String.format("%.0f%%", 100.0 * e.getValue() / sum)));
        table.note(String.format("All %d steps: %,d ms; this start took %,d ms to its first answer. The rest is the JVM's own start"
                + " (class loading before the first step) and the first request.", steps.size(), sum, wall));
        return table;
    }

    private interface Launcher {
        Service start(Path log) throws Exception;
    }

    /** Start-up median over the runs; RSS after the first answer and, on the last run, after 1,000 ListTasks over HTTP+JSON. */
    private double startups(Table table, String label, Map<String, String> env, int runs, Launcher launcher) throws Exception {
        long[] millis = new long[runs];
        double rss = 0;
        double rssLoaded = 0;
        for (int i = 0; i < runs; i++) {
            try (Service s = launcher.start(OUT.resolve("service-startup.log"))) {
                millis[i] = s.startupMillis;
                rss = s.rssMiB();
                if (i == runs - 1) {
                    java.util.concurrent.Callable<?> list = new Clients("127.0.0.1", s.port, null)
                            .httpList(Clients.token(PRIVATE_KEY, "bench", "big"), "");
                    for (int k = 0; k < (quick ? 100 : 1_000); k++) {
                        list.call();
                    }
                    rssLoaded = s.rssMiB();
                }
            }
        }
        Arrays.sort(millis);
        double median = millis[runs / 2];
        table.row(label, median, rss, rssLoaded);
        return median;
    }

    // --- set-up ----------------------------------------------------------------------------------

    static Map<String, String> serviceEnvironment(Database db) {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        Map<String, String> env = new HashMap<>();
        env.put("QUARKUS_DATASOURCE_REACTIVE_URL", db.reactiveUrl());
        env.put("QUARKUS_DATASOURCE_USERNAME", db.user());
        env.put("QUARKUS_DATASOURCE_PASSWORD", db.password());
        env.put("MP_JWT_VERIFY_PUBLICKEY_LOCATION", PUBLIC_KEY.toAbsolutePath().toString());
        env.put("MP_JWT_VERIFY_ISSUER", Clients.ISSUER);
        env.put("A2A_AUTH_TENANT_CLAIM", "tenant");
        env.put("A2A_PAGE_TOKEN_KEYS_BENCH", Base64.getEncoder().encodeToString(key));
        env.put("A2A_PAGE_TOKEN_CURRENT_KEY_ID", "bench");
        // Tables a-g measure the read and write paths at full speed from one caller, far past any
        // per-caller limit; the limiter's own cost is table h.
        env.put("A2A_RATE_LIMIT_ENABLED", "false");
        // Table i's webhook listens on loopback, which the address policy refuses unless allowed.
        env.put("A2A_PUSH_ALLOW_LIST", "127.0.0.1/32");
        return env;
    }

    /**
     * {@code env} for a service that times the send alone: its demo agent waits 10 minutes before
     * its first step, its runs may queue far past the default, and its leases outlast the run.
     */
    static Map<String, String> sendOnlyEnvironment(Map<String, String> env) {
        Map<String, String> sleeping = new HashMap<>(WritePath.withStepDelay(env, "600s"));
        sleeping.put("A2A_AGENT_MAX_QUEUED", "1000000");
        sleeping.put("A2A_AGENT_MAX_QUEUED_BYTES", "1G");
        sleeping.put("A2A_AGENT_LEASE", "2h");
        return sleeping;
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("Unknown argument " + args[i]);
            }
            String name = args[i].substring(2);
            boolean flag = i + 1 >= args.length || args[i + 1].startsWith("--");
            options.put(name, flag ? "true" : args[++i]);
        }
        return options;
    }
}
