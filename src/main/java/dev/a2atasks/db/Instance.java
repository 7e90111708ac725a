package dev.a2atasks.db;

import java.net.InetAddress;
import java.util.UUID;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * This process among the replicas on one database: the owner named in the leases it holds (the
 * runs of tasks, a mirror's sync). {@code a2a.instance-id}, or host name, process id and a random part, chosen when the
 * process starts (never at build time: a native image would otherwise share one).
 */
@ApplicationScoped
public class Instance {

    private final String id;

    Instance(@ConfigProperty(name = "a2a.instance-id") java.util.Optional<String> configured) {
        this.id = configured.filter(s -> !s.isBlank()).orElseGet(Instance::generated);
    }

    public String id() {
        return id;
    }

    private static String generated() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            host = "host";
        }
        return host + "-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
