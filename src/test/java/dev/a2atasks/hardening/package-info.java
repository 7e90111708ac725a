/**
 * End-to-end checks of how the service holds up against hostile and careless callers on every
 * binding: malformed input, forged page tokens, a database outage. May use the test support
 * clients and raw sockets; asserts only on what a caller can see (and, for the outage, the log).
 */
package dev.a2atasks.hardening;
