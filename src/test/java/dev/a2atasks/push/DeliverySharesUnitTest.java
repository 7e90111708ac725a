package dev.a2atasks.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class DeliverySharesUnitTest {

    @Test
    void aTenantTakesUpToItsShareAcrossItsUrls() {
        DeliveryShares shares = new DeliveryShares(3, 2);
        assertTrue(shares.take("a", "u1"));
        assertTrue(shares.take("a", "u2"));
        assertTrue(shares.take("a", "u3"));
        assertFalse(shares.take("a", "u4"), "the tenant's share is in flight");
        assertEquals(List.of("a"), shares.inUse().fullTenants());
        assertTrue(shares.take("b", "u4"), "another tenant is not held back");
    }

    @Test
    void aUrlTakesUpToItsShareWhateverTheTenant() {
        DeliveryShares shares = new DeliveryShares(10, 2);
        assertTrue(shares.take("a", "u"));
        assertTrue(shares.take("b", "u"));
        assertFalse(shares.take("c", "u"));
        assertEquals(List.of("u"), shares.inUse().fullUrls());
        assertTrue(shares.inUse().fullTenants().isEmpty());
    }

    @Test
    void aReleasedDeliveryFreesBothShares() {
        DeliveryShares shares = new DeliveryShares(1, 1);
        assertTrue(shares.take("a", "u"));
        assertFalse(shares.take("a", "v"));
        shares.release("a", "u");
        assertTrue(shares.inUse().fullTenants().isEmpty());
        assertTrue(shares.inUse().fullUrls().isEmpty());
        assertTrue(shares.take("a", "v"));
    }

    @Test
    void aRefusedTakeCountsNothing() {
        DeliveryShares shares = new DeliveryShares(2, 1);
        assertTrue(shares.take("a", "u"));
        assertFalse(shares.take("a", "u"), "the URL is full");
        assertTrue(shares.take("a", "v"), "the refused take did not use the tenant's second slot");
    }

    @Test
    void aClaimThatDoesNotCommitGivesBackWhatItTook() {
        DeliveryShares shares = new DeliveryShares(2, 2);
        assertTrue(shares.take("a", "u"));
        DeliveryShares.Tentative claim = shares.tentatively();
        assertTrue(claim.take("a", "v"));
        assertFalse(claim.take("a", "w"), "the tenant's share is full, counting the claim's");
        claim.giveBack();
        assertTrue(shares.inUse().fullTenants().isEmpty());
        assertTrue(shares.take("a", "w"), "the failed claim's share is free again; the earlier one is still held");
        assertFalse(shares.take("a", "x"));
    }

    @Test
    void sharesBelowOneAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new DeliveryShares(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new DeliveryShares(1, 0));
    }
}
