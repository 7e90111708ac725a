/**
 * Time on the wire and in the store: the one conversion utility between microseconds, SQL
 * {@code timestamptz}, proto {@code Timestamp} and RFC 3339 text. May use: the JDK and protobuf.
 */
package dev.a2atasks.time;
