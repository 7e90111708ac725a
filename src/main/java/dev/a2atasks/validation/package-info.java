/**
 * The input grammar shared by every binding: what text and what numbers a request may carry,
 * and how a refusal of each is worded.
 *
 * <p>Owns: {@link dev.a2atasks.validation.Grammar}. May use: the JDK only, so that the rules
 * are plain functions that run (and are tested) without Quarkus, and any layer may call them.
 */
package dev.a2atasks.validation;
