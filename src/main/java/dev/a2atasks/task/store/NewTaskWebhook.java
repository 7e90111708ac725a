package dev.a2atasks.task.store;

import java.time.OffsetDateTime;

/**
 * A webhook registration sent with the message that creates its task, as the one row of
 * {@code push_configs} the task's creating statement inserts ({@link TaskStore#submit}): the push
 * package has judged it and sealed its secrets to this row's key already.
 */
public record NewTaskWebhook(String id, String url, String authScheme, byte[] tokenSealed, byte[] credentialsSealed,
        String sealedWith, OffsetDateTime createdAt) {
}
