/**
 * The agent SPI: {@link dev.a2atasks.agent.AgentExecutor}, the interface an application
 * implements to do the work behind SendMessage, the {@link dev.a2atasks.agent.AgentRequest} it is
 * given and the {@link dev.a2atasks.agent.TaskUpdater} it reports through; plus the built-in
 * {@link dev.a2atasks.agent.DemoAgent}. May use: auth (Caller) and the generated proto classes;
 * nothing of the store, the bindings or SQL: an agent cannot write around the one writer.
 */
package dev.a2atasks.agent;
