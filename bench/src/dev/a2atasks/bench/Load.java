package dev.a2atasks.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/** Runs requests from N client threads for a fixed time over loopback and measures each one. */
final class Load {

    private Load() {
    }

    /** {@code request} is called once per client thread and yields that client's request (its own connection). */
    static Stats timed(int clients, Duration warmUp, Duration measure, Supplier<Callable<?>> request) throws Exception {
        long start = System.nanoTime();
        long measureFrom = start + warmUp.toNanos();
        long end = measureFrom + measure.toNanos();
        List<long[]> latencies = new ArrayList<>();
        int[] counts = new int[clients];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        List<Callable<?>> calls = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            long[] mine = new long[1 << 20];
            latencies.add(mine);
            int index = c;
            Callable<?> call = request.get();
            calls.add(call);
            Thread thread = new Thread(() -> {
                try {
                    int n = 0;
                    long now;
                    while ((now = System.nanoTime()) < end && failure.get() == null) {
                        call.call();
                        long done = System.nanoTime();
                        if (now >= measureFrom && n < mine.length) {
                            mine[n++] = done - now;
                        }
                    }
                    counts[index] = n;
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "load-" + c);
            threads.add(thread);
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join();
        }
        for (Callable<?> call : calls) {
            if (call instanceof AutoCloseable closeable) {
                closeable.close();
            }
        }
        if (failure.get() != null) {
            throw new IllegalStateException("A request failed under load", failure.get());
        }
        int total = 0;
        for (int count : counts) {
            total += count;
        }
        long[] all = new long[total];
        int offset = 0;
        for (int c = 0; c < clients; c++) {
            System.arraycopy(latencies.get(c), 0, all, offset, counts[c]);
            offset += counts[c];
        }
        return Stats.of(all, total, measure.toNanos() / 1e9);
    }

    /** {@code times} sequential calls after {@code warmUp} unmeasured ones. */
    static Stats repeated(int warmUp, int times, Callable<?> call) throws Exception {
        for (int i = 0; i < warmUp; i++) {
            call.call();
        }
        long[] nanos = new long[times];
        for (int i = 0; i < times; i++) {
            long t0 = System.nanoTime();
            call.call();
            nanos[i] = System.nanoTime() - t0;
        }
        return Stats.of(nanos, times, 0);
    }

    /**
     * The same for several calls compared with each other: {@code rounds} rounds, each calling every
     * one once, in an order rotating by round, so drift (JIT, a vacuum in the background) falls on
     * all of them alike instead of on whichever ran first.
     */
    static java.util.List<Stats> interleaved(int warmUp, int rounds, java.util.List<Callable<?>> calls) throws Exception {
        for (int i = 0; i < warmUp; i++) {
            for (Callable<?> call : calls) {
                call.call();
            }
        }
        long[][] nanos = new long[calls.size()][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < calls.size(); k++) {
                int which = (r + k) % calls.size();
                long t0 = System.nanoTime();
                calls.get(which).call();
                nanos[which][r] = System.nanoTime() - t0;
            }
        }
        java.util.List<Stats> stats = new java.util.ArrayList<>();
        for (long[] one : nanos) {
            stats.add(Stats.of(one, rounds, 0));
        }
        return stats;
    }

    /** How many windows {@link #steady} runs at most before it gives up waiting for a steady rate. */
    static final int MAX_WARM_UP_WINDOWS = 60;

    /**
     * Runs the load in back-to-back windows until it has served {@code minRequests} and three windows
     * in a row are within 5% of their mean: the JIT has compiled the path and the rate no longer
     * climbs. Returns the seconds that took. (A rate alone can mislead: on 2 shared cores a cold
     * path runs at a tenth of its speed for half a minute, and at low concurrency it climbs so
     * slowly that three windows look steady before C2 has compiled anything; hence the count.)
     */
    static double steady(int clients, Duration window, Supplier<Callable<?>> request, long minRequests) throws Exception {
        long t0 = System.nanoTime();
        long served = 0;
        java.util.Deque<Double> last = new java.util.ArrayDeque<>();
        for (int i = 0; i < MAX_WARM_UP_WINDOWS; i++) {
            Stats one = timed(clients, Duration.ZERO, window, request);
            served += one.count();
            last.addLast(one.requestsPerSecond());
            if (last.size() > 3) {
                last.removeFirst();
            }
            if (last.size() == 3 && served >= minRequests) {
                double mean = last.stream().mapToDouble(Double::doubleValue).average().orElse(0);
                if (last.stream().allMatch(rate -> Math.abs(rate - mean) <= 0.05 * mean)) {
                    break;
                }
            }
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    /** A subject measured in alternation with a baseline: totals over the rounds. */
    record Alternation(Stats subject, Stats baseline) {
        double share() {
            return subject.requestsPerSecond() / baseline.requestsPerSecond();
        }
    }

    /**
     * {@code rounds} rounds of one baseline window and one subject window (each after its own
     * unmeasured {@code warmUp}), so that a change of the machine's speed (other tenants, CPU steal)
     * falls on both. req/s are totals over the rounds; p50 the median of the rounds' p50s; p99 the
     * highest of their p99s.
     */
    static Alternation alternating(int clients, Duration warmUp, Duration window, int rounds, Supplier<Callable<?>> subject,
            Supplier<Callable<?>> baseline) throws Exception {
        List<Stats> subjects = new ArrayList<>();
        List<Stats> baselines = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            baselines.add(timed(clients, warmUp, window, baseline));
            subjects.add(timed(clients, warmUp, window, subject));
        }
        return new Alternation(combined(subjects), combined(baselines));
    }

    private static Stats combined(List<Stats> windows) {
        double[] p50 = windows.stream().mapToDouble(Stats::p50Ms).sorted().toArray();
        return new Stats(windows.stream().mapToInt(Stats::count).sum(), p50[p50.length / 2],
                windows.stream().mapToDouble(Stats::p99Ms).max().orElse(Double.NaN),
                windows.stream().mapToDouble(Stats::requestsPerSecond).average().orElse(0));
    }
}
