package dev.a2atasks.task;

import java.net.URI;

/**
 * A validated webhook registration (CreateTaskPushNotificationConfig, or the one a SendMessage
 * carries): its id (null: the service assigns one), the URL (http or https, a host, no user
 * info), and the optional header secrets. Whether the URL's addresses may be called is the push
 * package's decision, made after this one.
 *
 * <p>{@link #toString()} leaves the secrets out, so a command in a log line shows none.
 */
public record PushConfigCommand(String tenant, String taskId, String id, URI url, String authScheme, String credentials, String token) {

    @Override
    public String toString() {
        return "PushConfigCommand[tenant=" + tenant + ", taskId=" + taskId + ", id=" + id + ", url=" + url.getScheme() + "://"
                + url.getHost() + ", authScheme=" + authScheme + ", credentials=" + (credentials == null ? "none" : "(sealed)")
                + ", token=" + (token == null ? "none" : "(sealed)") + "]";
    }
}
