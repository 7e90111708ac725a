package dev.a2atasks.nativeimage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import com.google.protobuf.Any;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;

import dev.a2atasks.error.A2AException;
import dev.a2atasks.error.ErrorDetails;
import dev.a2atasks.error.ErrorKind;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Catches, without a native toolchain, the kinds of problem that broke the native build: a
 * protobuf type packed into error details but not registered for reflection, per-process state
 * (random generators, threads, executors) held in static finals that a native image would
 * initialise at build time, and application code that names the dev/test-only embedded database.
 */
class NativeReadinessUnitTest {

    private static final Path CLASSES = Path.of("target/classes");

    @Test
    void everyErrorDetailTypeIsRegisteredForReflection() throws Exception {
        Set<Class<?>> registered = Set.of(ErrorDetails.class.getAnnotation(RegisterForReflection.class).targets());
        List<A2AException> samples = List.of(A2AException.invalidParam("f", "f is bad"), new A2AException.TaskNotFound("t"),
                new A2AException.UnsupportedOperation("SendMessage"), new A2AException.VersionNotSupported("0.3", "1.0"),
                new A2AException.Unauthenticated("no"), new A2AException.Unavailable(Duration.ofSeconds(2)),
                new A2AException.Internal(), A2AException.Rejected.ofHttpStatus(404));
        Set<ErrorKind> kinds = new HashSet<>();
        Set<Class<?>> used = new HashSet<>();
        for (A2AException sample : samples) {
            kinds.add(sample.kind());
            for (Any detail : ErrorDetails.of(sample)) {
                Class<?> type = registered.stream().filter(c -> Message.class.isAssignableFrom(c) && isType(detail, c)).findFirst()
                        .orElseThrow(() -> new AssertionError(detail.getTypeUrl() + " is packed but not registered"));
                collect((Message) type.getMethod("getDefaultInstance").invoke(null), used);
            }
        }
        assertTrue(used.size() >= 3, "details seen: " + used);
        for (Class<?> type : used) {
            assertTrue(registered.contains(type), type + " is not registered for reflection");
            Class<?> builder = Class.forName(type.getName() + "$Builder");
            assertTrue(registered.contains(builder), builder + " is not registered for reflection");
        }
        assertTrue(kinds.containsAll(List.of(ErrorKind.INVALID_PARAMS, ErrorKind.UNAVAILABLE, ErrorKind.TASK_NOT_FOUND)));
    }

    @Test
    void noPerProcessStateInStaticFinals() throws Exception {
        List<String> offenders = new ArrayList<>();
        for (String name : applicationClasses()) {
            Class<?> type = Class.forName(name, false, getClass().getClassLoader());
            for (Field field : type.getDeclaredFields()) {
                int m = field.getModifiers();
                Class<?> t = field.getType();
                if (Modifier.isStatic(m) && Modifier.isFinal(m) && (java.util.Random.class.isAssignableFrom(t)
                        || java.security.SecureRandom.class.isAssignableFrom(t) || Thread.class.isAssignableFrom(t)
                        || java.util.concurrent.Executor.class.isAssignableFrom(t) || java.util.Timer.class.isAssignableFrom(t))) {
                    offenders.add(name + "." + field.getName() + " : " + t.getSimpleName());
                }
            }
        }
        assertEquals(List.of(), offenders, "made at build time in a native image, shared by every process");
    }

    @Test
    void onlyTheDevLauncherNamesTheEmbeddedDatabase() throws IOException {
        List<String> offenders = new ArrayList<>();
        for (String name : applicationClasses()) {
            String bytes = new String(Files.readAllBytes(CLASSES.resolve(name.replace('.', '/') + ".class")), StandardCharsets.ISO_8859_1);
            boolean launcher = name.equals("dev.a2atasks.db.EmbeddedPostgres");
            if (!launcher && (bytes.contains("io/zonky/") || bytes.contains("dev/a2atasks/db/EmbeddedPostgres;")
                    || bytes.contains("dev/a2atasks/db/EmbeddedPostgres\u0001") || bytes.contains("dev/a2atasks/db/EmbeddedPostgres"
                            + "\u0007"))) {
                offenders.add(name);
            }
        }
        assertEquals(List.of(), offenders, "reaches the dev/test-only embedded database in code");
        assertTrue(Files.readString(CLASSES.resolve("application.properties")).contains(
                "%dev.a2a.embedded-postgres.launcher=dev.a2atasks.db.EmbeddedPostgres"));
        assertTrue(!Files.readString(CLASSES.resolve("application.properties")).contains("\na2a.embedded-postgres.launcher="),
                "the production profile must not name the launcher");
    }

    private static boolean isType(Any detail, Class<?> type) {
        @SuppressWarnings("unchecked")
        Class<? extends Message> message = (Class<? extends Message>) type;
        return detail.is(message);
    }

    /** The message's class and the classes of every message-typed field below it. */
    private static void collect(Message message, Set<Class<?>> into) {
        if (!into.add(message.getClass())) {
            return;
        }
        for (FieldDescriptor field : message.getDescriptorForType().getFields()) {
            if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE && !field.isMapField()) {
                collect(message.toBuilder().newBuilderForField(field).build(), into);
            }
        }
    }

    private static List<String> applicationClasses() throws IOException {
        try (Stream<Path> files = Files.walk(CLASSES.resolve("dev/a2atasks"))) {
            return files.filter(p -> p.toString().endsWith(".class"))
                    .map(p -> CLASSES.relativize(p).toString().replace('/', '.').replaceAll("\\.class$", ""))
                    .filter(n -> !n.startsWith("dev.a2atasks.proto.")) // generated code
                    .sorted().toList();
        }
    }
}
