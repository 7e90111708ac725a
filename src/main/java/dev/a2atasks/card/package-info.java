/**
 * The Agent Card (spec §8): built once from configuration, served with an ETag at
 * {@code /.well-known/agent-card.json}. May use: protocol (the version), agent (its output modes), proto,
 * client (the catch-up extension it declares).
 */
package dev.a2atasks.card;
