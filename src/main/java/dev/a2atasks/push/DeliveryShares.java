package dev.a2atasks.push;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How a worker's in-flight deliveries are shared: at most {@code perTenant} for one tenant's
 * webhooks and {@code perUrl} for one webhook URL at once, within the worker's overall bound. A
 * webhook that never answers holds its slot until the timeout; with shares, a tenant's dead or
 * slow webhooks hold only that tenant's share, and the rest of the worker keeps delivering for
 * everyone else. Per worker (per replica), in memory: what a worker has in flight is what it
 * knows.
 */
final class DeliveryShares implements Outbox.Shares {

    private final int perTenant;
    private final int perUrl;
    private final Map<String, Integer> byTenant = new HashMap<>();
    private final Map<String, Integer> byUrl = new HashMap<>();

    DeliveryShares(int perTenant, int perUrl) {
        if (perTenant < 1 || perUrl < 1) {
            throw new IllegalArgumentException("shares must be at least 1: per tenant " + perTenant + ", per URL " + perUrl);
        }
        this.perTenant = perTenant;
        this.perUrl = perUrl;
    }

    @Override
    public synchronized boolean take(String tenant, String url) {
        if (byTenant.getOrDefault(tenant, 0) >= perTenant || byUrl.getOrDefault(url, 0) >= perUrl) {
            return false;
        }
        byTenant.merge(tenant, 1, Integer::sum);
        byUrl.merge(url, 1, Integer::sum);
        return true;
    }

    /** A delivery taken with {@link #take} ended, however it ended. */
    synchronized void release(String tenant, String url) {
        byTenant.computeIfPresent(tenant, (k, n) -> n > 1 ? n - 1 : null);
        byUrl.computeIfPresent(url, (k, n) -> n > 1 ? n - 1 : null);
    }

    /**
     * Shares taken for one claim, to be given back together if the claim does not commit: the
     * claim takes them row by row inside its transaction, and a transaction that fails after that
     * sends nothing, so nothing would ever release them.
     */
    Tentative tentatively() {
        return new Tentative();
    }

    /** See {@link #tentatively}. */
    final class Tentative implements Outbox.Shares {
        private final List<String[]> taken = new java.util.ArrayList<>();

        @Override
        public boolean take(String tenant, String url) {
            if (!DeliveryShares.this.take(tenant, url)) {
                return false;
            }
            synchronized (taken) {
                taken.add(new String[] { tenant, url });
            }
            return true;
        }

        @Override
        public SharesInUse inUse() {
            return DeliveryShares.this.inUse();
        }

        /** The claim failed: every share it took is free again. */
        void giveBack() {
            synchronized (taken) {
                taken.forEach(share -> release(share[0], share[1]));
                taken.clear();
            }
        }
    }

    @Override
    public synchronized SharesInUse inUse() {
        return new SharesInUse(Map.copyOf(byTenant), Map.copyOf(byUrl), perTenant, perUrl);
    }
}
