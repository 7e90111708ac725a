/**
 * Page tokens: the AES-GCM codec, the key ring (also the one push secrets are sealed with, under a
 * derived key), and the walk binding a token is sealed to (caller and effective filters, or caller
 * and task for a walk over a task's webhook registrations). Pure logic, tested without Quarkus.
 * May use: error.
 */
package dev.a2atasks.paging;
