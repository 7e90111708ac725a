package dev.a2atasks.client;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.a2atasks.proto.v1.Message;

/** A {@link TranscriptStore} in memory: per task, a map from message id to message in append order. */
public final class InMemoryTranscriptStore implements TranscriptStore {

    private final Map<String, LinkedHashMap<String, Message>> tasks = new ConcurrentHashMap<>();

    @Override
    public Set<String> known(String taskId, Collection<String> messageIds) {
        Map<String, Message> copy = tasks.getOrDefault(taskId, new LinkedHashMap<>());
        synchronized (copy) {
            Set<String> known = new HashSet<>();
            for (String id : messageIds) {
                if (copy.containsKey(id)) {
                    known.add(id);
                }
            }
            return known;
        }
    }

    @Override
    public boolean isEmpty(String taskId) {
        Map<String, Message> copy = tasks.get(taskId);
        if (copy == null) {
            return true;
        }
        synchronized (copy) {
            return copy.isEmpty();
        }
    }

    @Override
    public void append(String taskId, List<Message> messages) {
        LinkedHashMap<String, Message> copy = tasks.computeIfAbsent(taskId, id -> new LinkedHashMap<>());
        synchronized (copy) {
            for (Message m : messages) {
                copy.putIfAbsent(m.getMessageId(), m);
            }
        }
    }

    /** The task's messages as held, oldest first. */
    public List<Message> messages(String taskId) {
        Map<String, Message> copy = tasks.getOrDefault(taskId, new LinkedHashMap<>());
        synchronized (copy) {
            return new ArrayList<>(copy.values());
        }
    }
}
