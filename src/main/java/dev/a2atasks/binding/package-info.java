/**
 * The three protocol bindings. Each decodes its wire form, calls the one
 * {@link dev.a2atasks.protocol.A2AOperations} port, and encodes the answer or the error through
 * its single error mapper; no binding validates, scopes or words an error itself. The bindings
 * never depend on each other; what the two JSON bindings share lives in {@code binding.json}.
 */
package dev.a2atasks.binding;
