package dev.a2atasks.paging;

import org.jboss.logging.Logger;

import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** Builds the service's {@link PageTokenCodec} from configuration, refusing to run production without keys. */
@ApplicationScoped
class PageTokens {

    private static final Logger LOG = Logger.getLogger(PageTokens.class);

    /**
     * The service's key ring, one per process: it seals page tokens and (under a key derived per
     * purpose) the secrets of webhook registrations.
     */
    @Produces
    @Singleton
    KeyRing ring(PagingConfig config) {
        return keyRing(config);
    }

    @Produces
    @Singleton
    PageTokenCodec codec(KeyRing ring, PagingConfig config, TimeSource time) {
        return new PageTokenCodec(ring, config.ttl(), time::now);
    }

    /** Builds the codec at start-up, so a production instance without keys fails before serving. */
    void checkAtStartup(@Observes StartupEvent event, PageTokenCodec codec) {
        LOG.debug("Page tokens ready");
    }

    static KeyRing keyRing(PagingConfig config) {
        if (!config.keys().isEmpty()) {
            return KeyRing.fromConfig(config.currentKeyId(), config.keys());
        }
        if (config.allowGeneratedKey() || LaunchMode.current().isDevOrTest()) {
            LOG.warn("No page-token key configured (a2a.page-token.keys.<id>): using a random key for this process."
                    + " Page tokens will not survive a restart or work across replicas.");
            return KeyRing.generated();
        }
        throw new IllegalStateException("No page-token key configured: set a2a.page-token.keys.<id>=<base64 AES key>"
                + " (e.g. `openssl rand -base64 32`) and a2a.page-token.current-key-id=<id>");
    }
}
