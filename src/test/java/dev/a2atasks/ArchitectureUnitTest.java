package dev.a2atasks;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * The package rules the package-info files state, checked on the compiled main classes. Each
 * package-info ends with "May use: …": the table {@link #MAY_USE} is the same list, and
 * {@link #packageInfoStatesWhatTheTableAllows} keeps the two equal, so neither the code nor the
 * documentation can drift from the other. The generated protobuf classes are not checked.
 */
class ArchitectureUnitTest {

    private static final String ROOT = "dev.a2atasks";

    /**
     * What each package may use of the others (names relative to {@code dev.a2atasks}); "proto"
     * is the generated A2A and history-paging classes. A package always uses itself.
     */
    static final Map<String, Set<String>> MAY_USE = new TreeMap<>(Map.ofEntries(
            Map.entry("agent", Set.of("auth", "proto")),
            Map.entry("auth", Set.of("error", "validation")),
            Map.entry("binding.grpc", Set.of("binding.http", "protocol", "task", "task.read", "error", "proto", "time", "validation")),
            Map.entry("binding.http", Set.of("proto")),
            Map.entry("binding.json", Set.of("binding.http", "protocol", "task", "task.read", "error", "proto", "time", "validation")),
            Map.entry("binding.jsonrpc", Set.of("binding.json", "binding.http", "protocol", "task", "error", "proto")),
            Map.entry("binding.rest", Set.of("binding.json", "binding.http", "protocol", "task", "error", "proto", "mirror", "auth")),
            Map.entry("card", Set.of("protocol", "agent", "proto", "client", "task")),
            Map.entry("client", Set.of("proto")),
            Map.entry("console", Set.of()),
            Map.entry("db", Set.of("error")),
            Map.entry("error", Set.of()),
            Map.entry("execution", Set.of("agent", "task", "task.read", "task.store", "push", "auth", "db", "error", "jobs", "metrics",
                    "proto")),
            Map.entry("jobs", Set.of()),
            Map.entry("metrics", Set.of("error", "ratelimit", "paging")),
            Map.entry("mirror", Set.of("client", "task.store", "task.read", "auth", "db", "jobs", "metrics", "proto")),
            Map.entry("paging", Set.of("error")),
            Map.entry("protocol", Set.of("auth", "task", "task.read", "execution", "push", "ratelimit", "metrics", "db", "error", "client",
                    "proto")),
            Map.entry("push", Set.of("task", "task.store", "paging", "auth", "error", "db", "jobs", "metrics", "proto")),
            Map.entry("ratelimit", Set.of("error", "auth", "db", "jobs")),
            Map.entry("task", Set.of("task.read", "task.store", "auth", "paging", "validation", "error", "time", "metrics", "proto")),
            Map.entry("task.read", Set.of("auth", "paging", "task.store", "time", "db", "proto")),
            Map.entry("task.store", Set.of("auth", "error", "time", "metrics", "db", "proto")),
            Map.entry("time", Set.of()),
            Map.entry("validation", Set.of())));

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages(ROOT);
        assertTrue(main.size() > 300, "the main classes were found: " + main.size());
    }

    @Test
    void bindingsNeverReachTheStore() {
        noClasses().that().resideInAPackage(ROOT + ".binding..")
                .should().dependOnClassesThat().resideInAPackage(ROOT + ".task.store..")
                .check(main);
    }

    @Test
    void theStoreNeverReachesBindingsProtocolOrTheReadModel() {
        noClasses().that().resideInAPackage(ROOT + ".task.store..")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".binding..", ROOT + ".protocol..", ROOT + ".task.read..",
                        ROOT + ".execution..")
                .check(main);
    }

    @Test
    void theClientDependsOnNothingOfTheServer() {
        // It ships as a library of its own: the generated messages, gRPC, protobuf, the JDK; Micrometer if present.
        classes().that().resideInAPackage(ROOT + ".client..")
                .should().onlyDependOnClassesThat().resideInAnyPackage(ROOT + ".client..", ROOT + ".proto..", "java..", "javax..",
                        "com.google.protobuf..", "com.google.rpc..", "com.google.common..", "io.grpc..", "io.micrometer..")
                .check(main);
    }

    @Test
    void noCyclesBetweenPackages() {
        slices().matching(ROOT + ".(**)").should().beFreeOfCycles().check(main);
    }

    @Test
    void everyPackageUsesOnlyWhatItsPackageInfoAllows() {
        List<String> violations = new ArrayList<>();
        Set<String> seen = new TreeSet<>();
        for (JavaClass type : main) {
            String from = relative(type.getPackageName());
            if (from == null || from.startsWith("proto.") || type.getSimpleName().equals("package-info")) {
                continue;
            }
            seen.add(from);
            Set<String> allowed = MAY_USE.get(from);
            if (allowed == null) {
                violations.add(from + " has no row in MAY_USE (and its package-info no May use)");
                continue;
            }
            for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
                String to = relative(dependency.getTargetClass().getPackageName());
                if (to != null && !to.equals(from) && !allowed.contains(to.startsWith("proto.") ? "proto" : to)) {
                    violations.add(dependency.getDescription());
                }
            }
        }
        assertEquals(List.of(), violations.stream().distinct().sorted().toList());
        assertEquals(MAY_USE.keySet(), seen, "every package with classes has a row, and every row a package");
    }

    @Test
    void packageInfoStatesWhatTheTableAllows() throws IOException {
        Map<String, Set<String>> stated = new TreeMap<>();
        for (String pkg : MAY_USE.keySet()) {
            stated.put(pkg, mayUse(Path.of("src/main/java", (ROOT + "." + pkg).replace('.', '/'), "package-info.java")));
        }
        assertEquals(MAY_USE, stated, "each package-info's \"May use:\" names exactly the packages of its MAY_USE row");
    }

    private static final Pattern MAY_USE_CLAUSE = Pattern.compile("May use:(.*?)(?:;|\\.\\s|\\*/)", Pattern.DOTALL);
    private static final Pattern NAME = Pattern.compile("(?<![\\w.])[a-z]+(?:\\.[a-z]+)*(?![\\w.])");

    /** The project packages a package-info's "May use:" clause names (outside parentheses, before the first ";" or sentence end). */
    static Set<String> mayUse(Path packageInfo) throws IOException {
        return mayUseNames(Files.readString(packageInfo)).orElse(Set.of("<no May use: in " + packageInfo + ">"));
    }

    static java.util.Optional<Set<String>> mayUseNames(String packageInfo) {
        Matcher clause = MAY_USE_CLAUSE.matcher(packageInfo.replaceAll("\\s*\\n\\s*\\*\\s?", " "));
        if (!clause.find()) {
            return java.util.Optional.empty();
        }
        Matcher name = NAME.matcher(clause.group(1).replaceAll("\\([^)]*\\)", " "));
        Set<String> found = new TreeSet<>();
        while (name.find()) {
            if (MAY_USE.containsKey(name.group()) || name.group().equals("proto")) {
                found.add(name.group());
            }
        }
        return java.util.Optional.of(found);
    }

    private static String relative(String packageName) {
        return packageName.startsWith(ROOT + ".") ? packageName.substring(ROOT.length() + 1) : null;
    }

    @Test
    void noMainSourceFileOverFourHundredLines() throws IOException {
        // A class that outgrows this does more than one job: split it by job, as task.store's writers are.
        List<String> tooLong = new ArrayList<>();
        try (var files = Files.walk(Path.of("src/main/java"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                int lines = Files.readAllLines(file).size();
                if (lines > 400) {
                    tooLong.add(file + ": " + lines + " lines");
                }
            }
        }
        assertEquals(List.of(), tooLong);
    }

    @Test
    void theClauseReaderFindsNamesNotWords() {
        String packageInfo = """
                /**
                 * What it is. May use: task.read (the store's views), db, the
                 * generated proto classes, the JDK; never a binding or push. Its paging is not named.
                 */
                package x;""";
        assertEquals(java.util.Optional.of(Set.of("task.read", "db", "proto")), mayUseNames(packageInfo));
        assertEquals(java.util.Optional.empty(), mayUseNames("/** No clause at all. */"));
    }
}
