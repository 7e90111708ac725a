package dev.a2atasks.task;

import java.util.List;

import dev.a2atasks.task.read.TaskView;

/** One ListTasks response: {@code nextPageToken} is "" on the last page. */
public record TaskPage(List<TaskView> tasks, String nextPageToken, int pageSize, int totalSize) {
}
