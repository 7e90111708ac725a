/**
 * Message history as the read path needs it: the newest N messages of every task of a page, in
 * one statement. May use: the reactive pool.
 */
package dev.a2atasks.history;
