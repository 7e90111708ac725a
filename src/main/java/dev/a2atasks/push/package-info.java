/**
 * Push notifications (spec §3.1.7-3.1.10, §4.3, §13.2): the webhook registration operations
 * ({@link dev.a2atasks.push.PushConfigs}), the address policy that keeps webhooks out of private
 * networks ({@link dev.a2atasks.push.AddressPolicy}, {@link dev.a2atasks.push.WebhookGuard}), the
 * sealing of their secrets ({@link dev.a2atasks.push.SecretBox}) and the delivery of task events
 * from the outbox ({@link dev.a2atasks.push.DeliveryWorker}, {@link dev.a2atasks.push.Outbox}), each tenant
 * and webhook URL held to its share of a worker ({@link dev.a2atasks.push.DeliveryShares}).
 * The rows themselves are mapped, and written with the task events they follow, in task.store.
 * May use: task (the validator), task.store (registrations, the outbox), paging (key ring, page
 * tokens), auth (Caller), error, db, jobs, metrics, the generated proto classes; never a binding,
 * never execution.
 */
package dev.a2atasks.push;
