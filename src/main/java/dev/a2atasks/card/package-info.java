/**
 * The Agent Card (spec §8): built once from configuration, served with an ETag at
 * {@code /.well-known/agent-card.json}. May use: protocol (the version), agent (its output modes), proto,
 * client (the extensions it declares), task (the page sizes of history paging).
 */
package dev.a2atasks.card;
