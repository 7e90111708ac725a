package dev.a2atasks.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.ConfigMappings;

/**
 * The configuration table of {@code docs/configuration.md} and the service's own keys
 * ({@code a2a.*}) cannot drift apart: every key the code reads has a row, every row names a key
 * the code reads, and every {@code a2a.*} key {@code application.properties} sets is one of them
 * (a misspelt key there would otherwise be ignored without a word).
 *
 * <p>The code's keys are those of its {@code @ConfigMapping} interfaces (as SmallRye Config itself
 * lists them, map keys as {@code *}), its {@code @ConfigProperty} names, and the key constants of
 * the embedded database's config source. In the table, {@code <name>} stands for a map key, and
 * {@code `a.b.c` / `.d`} is short for {@code a.b.c} and {@code a.b.d}.
 */
class ConfigurationTableUnitTest {

    private static final Path SOURCES = Path.of("src/main/java");
    private static final Pattern CONFIG_PROPERTY = Pattern.compile("ConfigProperty\\(\\s*name\\s*=\\s*\"(a2a\\.[^\"]+)\"");
    private static final Pattern KEY_CONSTANT = Pattern.compile("static final String \\w+ = \"(a2a\\.[a-z0-9.-]+)\";");
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    @Test
    void everyKeyOfTheCodeHasARowAndEveryRowAKey() throws Exception {
        Set<String> code = codeKeys();
        Set<String> table = tableKeys();
        // A row's <class> may stand for keys the code names one by one (a2a.rate-limit.page.burst).
        Set<String> undocumented = new TreeSet<>(code);
        undocumented.removeIf(key -> table.stream().anyMatch(row -> matches(row, key)));
        Set<String> unknown = new TreeSet<>(table);
        unknown.removeIf(row -> code.stream().anyMatch(key -> matches(row, key)));
        assertEquals(new TreeSet<>(), undocumented, "keys the code reads with no row in docs/configuration.md");
        assertEquals(new TreeSet<>(), unknown, "rows of docs/configuration.md that name no key the code reads");
    }

    @Test
    void everyA2aKeyInApplicationPropertiesIsOneTheCodeReads() throws Exception {
        Set<String> code = codeKeys();
        Set<String> unknown = new TreeSet<>();
        for (String line : Files.readAllLines(Path.of("src/main/resources/application.properties"))) {
            String key = line.split("=", 2)[0].trim().replaceFirst("^%[a-z]+\\.", "");
            if (key.startsWith("a2a.") && code.stream().noneMatch(k -> matches(k, key))) {
                unknown.add(key);
            }
        }
        assertEquals(new TreeSet<>(), unknown, "a2a keys set in application.properties that the code never reads");
    }

    private static Set<String> codeKeys() throws Exception {
        Set<String> keys = new TreeSet<>();
        List<Path> sources;
        try (Stream<Path> files = Files.walk(SOURCES)) {
            sources = files.filter(p -> p.toString().endsWith(".java")).toList();
        }
        for (Path source : sources) {
            String text = Files.readString(source);
            collect(CONFIG_PROPERTY, text, keys);
            collect(KEY_CONSTANT, text, keys);
            if (text.contains("@ConfigMapping(")) {
                String name = SOURCES.relativize(source).toString().replace('/', '.').replaceFirst("\\.java$", "");
                Class<?> type = Class.forName(name);
                String prefix = type.getAnnotation(ConfigMapping.class).prefix();
                for (String key : ConfigMappings.getProperties(ConfigMappings.ConfigClass.configClass(type, prefix)).keySet()) {
                    keys.add(key.replace("[*]", "")); // a list is one key to a reader (a2a.push.allow-list)
                }
            }
        }
        return keys;
    }

    private static Set<String> tableKeys() throws IOException {
        Set<String> keys = new TreeSet<>();
        for (String line : Files.readAllLines(Path.of("docs/configuration.md"))) {
            if (!line.startsWith("| `a2a.")) {
                continue;
            }
            String cell = line.split("\\|")[1];
            Matcher names = CODE.matcher(cell);
            String first = null;
            while (names.find()) {
                String name = names.group(1).replaceAll("<[^>]+>", "*");
                if (first == null) {
                    first = name;
                    keys.add(name);
                } else if (name.startsWith(".")) {
                    keys.add(first.substring(0, first.lastIndexOf('.')) + name);
                }
            }
        }
        return keys;
    }

    /** Whether {@code key} is one {@code pattern} stands for ({@code a2a.rate-limit.*.burst}: {@code a2a.rate-limit.page.burst}). */
    private static boolean matches(String pattern, String key) {
        return Pattern.matches(Pattern.quote(pattern).replace("*", "\\E[^.]+\\Q"), key);
    }

    private static void collect(Pattern pattern, String text, Set<String> into) {
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            into.add(m.group(1));
        }
    }

    private static Set<String> minus(Set<String> a, Set<String> b) {
        Set<String> rest = new TreeSet<>(a);
        rest.removeAll(b);
        return rest;
    }
}
