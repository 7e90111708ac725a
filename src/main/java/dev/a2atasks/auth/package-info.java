/**
 * Who is asking: turns a verified bearer token into a {@link dev.a2atasks.auth.Caller} (tenant,
 * subject), with identity claims taken verbatim, and words authentication refusals. Owns the
 * cache of verified tokens. May use: error, validation, smallrye-jwt; nothing of the bindings.
 */
package dev.a2atasks.auth;
