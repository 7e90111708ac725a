/**
 * The read model. Hand-written SQL only where the plan is the feature: the ListTasks keyset
 * page and its count ({@link dev.a2atasks.task.read.TaskPageQueries}) and the history tails
 * ({@link dev.a2atasks.task.read.HistoryTails}), a window of one transcript
 * ({@link dev.a2atasks.task.read.TranscriptPages}), a stream's next events
 * ({@link dev.a2atasks.task.read.EventTails}), where a blocking send's task stands
 * ({@link dev.a2atasks.task.read.TaskProgress}), one task as GetTask answers it
 * ({@link dev.a2atasks.task.read.TaskDocument}), each statement pinned by an EXPLAIN test; the
 * simple reads (a page's artifacts, a stream's locked snapshot) go through the entities
 * ({@link dev.a2atasks.task.read.TaskReads}). Every statement starts from the caller's scope.
 * Produces views whose JSON fields are the stored ProtoJSON text, for bindings to copy or parse.
 * May use: auth (Caller), paging (the cursor), task.store (its entities, read only), time, db (its
 * pooled statements), proto.
 */
package dev.a2atasks.task.read;
