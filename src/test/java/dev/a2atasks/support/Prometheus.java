package dev.a2atasks.support;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the service's {@code /q/metrics} as a test compares it: samples by name and labels, and what moved between two scrapes. */
public final class Prometheus {

    private Prometheus() {
    }

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)\\})? (\\S+)$");

    /** The Prometheus text exposition as sample -> value; a sample's key is its name and sorted labels. */
    public static Map<String, Double> scrape() {
        String text = given().get("/q/metrics").then().statusCode(200).extract().asString();
        Map<String, Double> samples = new HashMap<>();
        for (String line : text.split("\n")) {
            Matcher m = SAMPLE.matcher(line);
            if (!line.startsWith("#") && m.matches()) {
                List<String> labels = new ArrayList<>();
                if (m.group(3) != null) {
                    for (String label : m.group(3).split(",(?=[a-zA-Z_]+=\")")) {
                        if (!label.isBlank()) {
                            labels.add(label);
                        }
                    }
                }
                labels.sort(null);
                samples.put(m.group(1) + labels, Double.parseDouble(m.group(4)));
            }
        }
        assertFalse(samples.isEmpty(), text);
        return samples;
    }

    /** What moved between two scrapes. */
    public record Delta(Map<String, Double> before, Map<String, Double> after) {
        public void is(double expected, String name, String... labels) {
            List<String> wanted = new ArrayList<>();
            for (int i = 0; i < labels.length; i += 2) {
                wanted.add(labels[i] + "=\"" + labels[i + 1] + "\"");
            }
            double now = sum(after, name, wanted);
            double then = sum(before, name, wanted);
            assertTrue(after.keySet().stream().anyMatch(k -> matches(k, name, wanted)), name + wanted + " is exported");
            assertEquals(expected, now - then, 1e-9, name + wanted);
        }

        /** The value now (summed over the samples that match), for gauges. */
        public double now(String name, String... labels) {
            List<String> wanted = new ArrayList<>();
            for (int i = 0; i < labels.length; i += 2) {
                wanted.add(labels[i] + "=\"" + labels[i + 1] + "\"");
            }
            return sum(after, name, wanted);
        }

        private static double sum(Map<String, Double> samples, String name, List<String> wanted) {
            return samples.entrySet().stream().filter(e -> matches(e.getKey(), name, wanted)).mapToDouble(Map.Entry::getValue).sum();
        }

        private static boolean matches(String key, String name, List<String> wanted) {
            if (!key.startsWith(name + "[")) {
                return false;
            }
            return wanted.stream().allMatch(key::contains);
        }
    }
}
