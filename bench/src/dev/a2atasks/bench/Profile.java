package dev.a2atasks.bench;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where the service spends its CPU during a load run: a JDK Flight Recorder capture of the
 * service process (started and stopped with jcmd around the run), summarized by area.
 */
final class Profile {

    /** Areas by frame class prefix; a sample counts toward every area on its stack (inclusive time). */
    private static final Map<String, List<String>> AREAS = new LinkedHashMap<>();

    static {
        AREAS.put("JWT verification (smallrye-jwt, jose4j)", List.of("io.smallrye.jwt.", "org.jose4j."));
        AREAS.put("page-token crypto (AES-GCM)", List.of("dev.a2atasks.paging.", "com.sun.crypto.", "javax.crypto."));
        AREAS.put("PostgreSQL client (Vert.x pg)", List.of("io.vertx.pgclient.", "io.vertx.sqlclient.", "io.vertx.mutiny.sqlclient."));
        AREAS.put("protobuf build/serialize", List.of("com.google.protobuf.", "dev.a2atasks.binding.grpc.ProtoTasks"));
        AREAS.put("JSON writing (Jackson)", List.of("com.fasterxml.jackson."));
        AREAS.put("gRPC and HTTP/2 framing", List.of("io.grpc.", "io.vertx.grpc."));
        AREAS.put("Netty I/O", List.of("io.netty."));
        AREAS.put("Quarkus security and CDI", List.of("io.quarkus.security.", "io.quarkus.smallrye.jwt.", "io.quarkus.arc."));
        AREAS.put("our request path (service, validation, SQL building)", List.of("dev.a2atasks.task.", "dev.a2atasks.protocol.", "dev.a2atasks.auth."));
        AREAS.put("our write path (runs, agent, streams, push)", List.of("dev.a2atasks.execution.", "dev.a2atasks.agent.", "dev.a2atasks.push."));
        AREAS.put("Hibernate ORM and Reactive", List.of("org.hibernate."));
        AREAS.put("native-query plan cache (SelectInterpretationsKey)", List.of("org.hibernate.query.sql.spi.SelectInterpretationsKey"));
        AREAS.put("logging", List.of("org.jboss.logmanager.", "org.jboss.logging."));
    }

    private Profile() {
    }

    /** Runs {@code load} while recording the process; returns the table of where time went. */
    static Table during(long pid, String label, Path out, Callable<?> load) throws Exception {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        run(jcmd.toString(), Long.toString(pid), "JFR.start", "name=bench", "settings=profile");
        Map<String, Long> cpuBefore = cpuTicks(pid);
        long wallBefore = System.nanoTime();
        try {
            load.call();
        } finally {
            run(jcmd.toString(), Long.toString(pid), "JFR.stop", "name=bench", "filename=" + out.toAbsolutePath());
        }
        double wallSeconds = (System.nanoTime() - wallBefore) / 1e9;
        Map<String, Long> cpuAfter = cpuTicks(pid);
        Map<String, Integer> inclusive = new LinkedHashMap<>();
        AREAS.keySet().forEach(area -> inclusive.put(area, 0));
        Map<String, Integer> self = new TreeMap<>();
        int samples = 0;
        for (RecordedEvent event : RecordingFile.readAllEvents(out)) {
            if (!event.getEventType().getName().equals("jdk.ExecutionSample") || event.getStackTrace() == null) {
                continue;
            }
            List<RecordedFrame> frames = event.getStackTrace().getFrames();
            if (frames.isEmpty()) {
                continue;
            }
            samples++;
            RecordedFrame top = frames.get(0);
            self.merge(top.getMethod().getType().getName() + "." + top.getMethod().getName(), 1, Integer::sum);
            for (var area : AREAS.entrySet()) {
                boolean hit = frames.stream().anyMatch(f -> area.getValue().stream()
                        .anyMatch(prefix -> f.getMethod().getType().getName().startsWith(prefix)));
                if (hit) {
                    inclusive.merge(area.getKey(), 1, Integer::sum);
                }
            }
        }
        int total = Math.max(samples, 1);
        Table table = new Table("Profile of the service under " + label + " (" + samples + " CPU samples)", "area", "share of samples");
        inclusive.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .forEach(e -> table.row(e.getKey(), String.format("%.0f%%", 100.0 * e.getValue() / total)));
        String hottest = self.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(8)
                .map(e -> String.format("%s %.1f%%", e.getKey(), 100.0 * e.getValue() / total)).collect(Collectors.joining("; "));
        String cpu = cpuAfter.keySet().stream().map(k -> String.format("%s %.2f", k,
                (cpuAfter.get(k) - cpuBefore.getOrDefault(k, 0L)) / (double) TICKS_PER_SECOND / wallSeconds))
                .collect(Collectors.joining(", "));
        table.note("CPU used during the run, in cores (of " + Runtime.getRuntime().availableProcessors() + "): " + cpu + ".");
        table.note("Areas overlap (a sample counts toward every area on its stack). Hottest methods (self): " + hottest
                + ". Recording: " + out);
        return table;
    }

    private static final long TICKS_PER_SECOND = 100; // USER_HZ on Linux

    /** CPU time (user + system clock ticks) of the service, of this load-generating JVM, and of all PostgreSQL processes. */
    private static Map<String, Long> cpuTicks(long servicePid) throws java.io.IOException {
        Map<String, Long> ticks = new LinkedHashMap<>();
        ticks.put("service", ticks(servicePid));
        ticks.put("load generator (this JVM)", ticks(ProcessHandle.current().pid()));
        long postgres = 0;
        try (var procs = java.nio.file.Files.list(Path.of("/proc"))) {
            for (Path proc : (Iterable<Path>) procs::iterator) {
                String name = proc.getFileName().toString();
                if (name.chars().allMatch(Character::isDigit)) {
                    try {
                        if (java.nio.file.Files.readString(proc.resolve("comm")).trim().startsWith("postgres")) {
                            postgres += ticks(Long.parseLong(name));
                        }
                    } catch (java.io.IOException gone) {
                        // the process ended meanwhile
                    }
                }
            }
        }
        ticks.put("PostgreSQL", postgres);
        return ticks;
    }

    private static long ticks(long pid) throws java.io.IOException {
        String stat = java.nio.file.Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
    }

    private static void run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
        }
    }
}
