package dev.a2atasks.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The client package is for other services too: it may use the generated A2A proto classes,
 * gRPC, protobuf and the JDK, but nothing of the server.
 */
class ClientIndependenceTest {

    @Test
    void clientImportsNothingOfTheServer() throws IOException {
        Path dir = Path.of("src/main/java/dev/a2atasks/client");
        List<String> offending;
        List<Path> sources;
        try (Stream<Path> files = Files.list(dir)) {
            sources = files.filter(p -> p.toString().endsWith(".java")).toList();
        }
        assertTrue(sources.size() >= 8, sources.toString());
        offending = sources.stream().flatMap(p -> {
            try {
                return Files.readAllLines(p).stream().map(line -> p.getFileName() + ": " + line.trim());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }).filter(line -> line.matches(".*: import (static )?(dev\\.a2atasks|io\\.quarkus|jakarta|io\\.vertx|io\\.smallrye)\\..*"))
                .filter(line -> !line.matches(".*: import (static )?dev\\.a2atasks\\.(client|proto)\\..*"))
                .toList();
        assertEquals(List.of(), offending);
    }
}
