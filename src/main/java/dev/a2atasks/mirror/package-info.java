/**
 * Incremental mirrors of remote agents' tasks: a job per configured source that walks it from a
 * high-water mark with the client and writes what changed. May use: client, task (the store and the reads),
 * auth (Caller). Its marks are a Panache entity.
 */
package dev.a2atasks.mirror;
