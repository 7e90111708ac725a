package dev.a2atasks.push;

import dev.a2atasks.paging.KeyRing;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** The process's {@link SecretBox}, over the service's key ring. */
@ApplicationScoped
class SecretBoxes {

    @Produces
    @Singleton
    SecretBox box(KeyRing ring) {
        return new SecretBox(ring);
    }
}
