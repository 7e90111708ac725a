package dev.a2atasks.push;

import java.util.List;
import java.util.Map;

/**
 * A worker's deliveries in flight by tenant and by URL, and the most each may have at once
 * ({@link DeliveryShares}), as a claim reads them: the claim leaves each the room it has left.
 */
public record SharesInUse(Map<String, Integer> byTenant, Map<String, Integer> byUrl, int perTenant, int perUrl) {

    /** The tenants whose whole share is in flight: a claim need not look at their rows. */
    List<String> fullTenants() {
        return byTenant.entrySet().stream().filter(e -> e.getValue() >= perTenant).map(Map.Entry::getKey).toList();
    }

    /** The URLs whose whole share is in flight. */
    List<String> fullUrls() {
        return byUrl.entrySet().stream().filter(e -> e.getValue() >= perUrl).map(Map.Entry::getKey).toList();
    }

    /** The names of {@code byName} and the count of each at the same index: two arrays, as SQL arguments for {@code unnest}. */
    static List<Object> asArrays(Map<String, Integer> byName) {
        String[] names = new String[byName.size()];
        Integer[] counts = new Integer[byName.size()];
        int i = 0;
        for (Map.Entry<String, Integer> entry : byName.entrySet()) {
            names[i] = entry.getKey();
            counts[i++] = entry.getValue();
        }
        return List.of(names, counts);
    }
}
