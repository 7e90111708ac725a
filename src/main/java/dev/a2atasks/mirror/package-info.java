/**
 * Incremental mirrors of remote agents' tasks: a job per configured source that walks it from a
 * high-water mark with the client and writes what changed through the store's
 * {@link dev.a2atasks.task.store.MirrorCopies} (a source touches only its own copies), one replica
 * at a time per source ({@link dev.a2atasks.mirror.MirrorLeases}). May use: client, task.store (the
 * copies), task.read (the reads), auth (Caller), db (this replica's identity, its pooled
 * statements), jobs, metrics, proto.
 */
package dev.a2atasks.mirror;
