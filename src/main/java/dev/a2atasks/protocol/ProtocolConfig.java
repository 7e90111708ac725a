package dev.a2atasks.protocol;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "a2a.protocol")
public interface ProtocolConfig {

    /**
     * The version assumed for a request without an A2A-Version header or parameter. The
     * specification (§3.6.2) says "0.3", which this service does not speak, so such requests get
     * VersionNotSupported; set "1.0" to serve clients that omit the header.
     */
    @WithDefault("0.3")
    String versionWhenAbsent();
}
