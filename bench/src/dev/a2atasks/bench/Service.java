package dev.a2atasks.bench;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/** The packaged service (target/quarkus-app, or the native executable) as a child process, the way it runs in production. */
final class Service implements AutoCloseable {

    final int port;
    final Process process;
    final long startupMillis;

    private Service(int port, Process process, long startupMillis) {
        this.port = port;
        this.process = process;
        this.startupMillis = startupMillis;
    }

    /**
     * Starts the service and waits until it answers its first request (the Agent Card).
     *
     * @param java     the java executable to run it with
     * @param jvmFlags extra JVM flags (e.g. an AOT cache)
     */
    /**
     * Two services started at once (for tables that run two side by side: their start-ups overlap,
     * and nothing is measured before both answer). If one fails, the other is stopped.
     */
    static List<Service> startBoth(java.util.concurrent.Callable<Service> first, java.util.concurrent.Callable<Service> second)
            throws Exception {
        java.util.concurrent.FutureTask<Service> other = new java.util.concurrent.FutureTask<>(second);
        Thread starter = new Thread(other, "bench-start");
        starter.start();
        Service one;
        try {
            one = first.call();
        } catch (Exception e) {
            try {
                other.get().close();
            } catch (Exception ignored) {
                // the first failure is the one to report
            }
            throw e;
        }
        try {
            return List.of(one, other.get());
        } catch (java.util.concurrent.ExecutionException e) {
            one.close();
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    static Service start(Path java, List<String> jvmFlags, Map<String, String> env, Path log) throws Exception {
        int port = freePort();
        List<String> command = new ArrayList<>(List.of(java.toString()));
        command.addAll(jvmFlags);
        // Run from the application's directory with the jar's relative name, as a container does
        // from /deployments: the AppCDS archive Quarkus writes records that class path, and the
        // JVM refuses the archive for any other (it did for an absolute path, silently).
        command.addAll(List.of("-Dquarkus.http.port=" + port, "-Dquarkus.http.host=127.0.0.1", "-jar", "quarkus-run.jar"));
        return start(command, port, env, log, APPLICATION.toFile());
    }

    private static final Path APPLICATION = Path.of("target/quarkus-app").toAbsolutePath();

    /** Starts the native executable (same configuration, as system properties) and waits for its first answer. */
    static Service startNative(Path executable, Map<String, String> env, Path log) throws Exception {
        int port = freePort();
        return start(List.of(executable.toAbsolutePath().toString(), "-Dquarkus.http.port=" + port, "-Dquarkus.http.host=127.0.0.1"),
                port, env, log, null);
    }

    private static Service start(List<String> command, int port, Map<String, String> env, Path log, java.io.File directory)
            throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toAbsolutePath().toFile())
                .directory(directory);
        builder.environment().putAll(env);
        long t0 = System.nanoTime();
        Process process = builder.start();
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofMillis(200)).build();
        HttpRequest card = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/.well-known/agent-card.json"))
                .timeout(Duration.ofSeconds(2)).build();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException("The service exited during start-up; see " + log + ":\n" + tail(log));
            }
            try {
                if (http.send(card, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    break;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            if (System.nanoTime() - t0 > Duration.ofSeconds(120).toNanos()) {
                process.destroyForcibly();
                throw new IllegalStateException("The service did not start within 120 s; see " + log);
            }
            // Poll every 5 ms: often enough for the measurement, without taking a core from the starting service.
            LockSupport.parkNanos(5_000_000);
        }
        return new Service(port, process, (System.nanoTime() - t0) / 1_000_000);
    }

    /** Resident set size of the service process, in MiB. */
    double rssMiB() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
            }
        }
        return Double.NaN;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy(); // SIGTERM: a graceful Quarkus shutdown (an AOT training run writes its cache then)
        if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }
}
