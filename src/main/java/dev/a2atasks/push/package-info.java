/**
 * Push notifications (spec §3.1.7-3.1.10, §4.3, §13.2): the webhook registration operations
 * ({@link dev.a2atasks.push.PushConfigs}), the address policy that keeps webhooks out of private
 * networks ({@link dev.a2atasks.push.AddressPolicy}, {@link dev.a2atasks.push.WebhookGuard}), the
 * sealing of their secrets ({@link dev.a2atasks.push.SecretBox}) and the delivery of task events
 * from the outbox ({@link dev.a2atasks.push.DeliveryWorker}, {@link dev.a2atasks.push.Outbox}, on a
 * Vert.x event loop of their own, {@link dev.a2atasks.push.DeliveryLoop}), each tenant
 * and webhook URL held to its share of a worker ({@link dev.a2atasks.push.DeliveryShares}).
 * Its rows are its own: {@link dev.a2atasks.push.PushConfigEntity} and
 * {@link dev.a2atasks.push.PushDeliveryEntity}, written by {@link dev.a2atasks.push.PushStore}
 * under the task's row lock; the event log writes an event's outbox rows in the event's
 * transaction through the store's {@link dev.a2atasks.task.store.EventOutbox}, which PushStore is.
 * May use: task (the validator), task.store (the task row's lock, the seams it offers), paging (key
 * ring, page tokens), auth (Caller), error, db, jobs, metrics, the generated proto classes; never a
 * binding, never execution.
 */
package dev.a2atasks.push;
