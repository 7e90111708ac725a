package dev.a2atasks.bench;

import java.util.Arrays;

/** Latencies of one measurement: median and p99 in milliseconds, throughput when timed. */
record Stats(int count, double p50Ms, double p99Ms, double requestsPerSecond) {

    static Stats of(long[] nanos, int count, double seconds) {
        long[] sorted = Arrays.copyOf(nanos, count);
        Arrays.sort(sorted);
        return new Stats(count, percentile(sorted, 0.50), percentile(sorted, 0.99), seconds > 0 ? count / seconds : 0);
    }

    private static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int index = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(index, sorted.length - 1))] / 1e6;
    }
}
