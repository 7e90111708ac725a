/**
 * Page tokens: the AES-GCM codec, the key ring, and the walk binding a token is sealed to (caller
 * and effective filters). Pure logic, tested without Quarkus. May use: error.
 */
package dev.a2atasks.paging;
