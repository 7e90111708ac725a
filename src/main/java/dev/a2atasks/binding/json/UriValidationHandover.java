package dev.a2atasks.binding.json;

import java.util.List;

import org.eclipse.microprofile.config.spi.ConfigSource;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;

/**
 * Hands the check of request URLs from Quarkus' HTTP layer to {@link HttpRefusals}.
 *
 * <p>Quarkus parses every request target with {@code java.net.URI} before any handler and
 * answers a bad one ({@code %zz}, a raw control character) with an empty 400, unless the system
 * property {@code vertx.disableURIValidation} is true. {@link StrictUrl} checks the same URLs
 * more strictly and answers with the error body naming the parameter. The property is read once,
 * when Quarkus' HTTP recorder is initialised; building the configuration is the one hook of the
 * application that runs before that in every launch mode (tests, dev, jar, native build), so the
 * property is set here. This contributes no configuration.
 */
public final class UriValidationHandover implements ConfigSourceFactory {

    static final String PROPERTY = "vertx.disableURIValidation";

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        if (System.getProperty(PROPERTY) == null) {
            System.setProperty(PROPERTY, "true");
        }
        return List.of();
    }
}
