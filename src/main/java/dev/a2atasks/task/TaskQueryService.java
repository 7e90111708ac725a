package dev.a2atasks.task;

import dev.a2atasks.task.read.ListTasksQuery;
import java.util.List;
import java.util.Map;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.error.A2AException;
import dev.a2atasks.metrics.ServiceMetrics;
import dev.a2atasks.paging.PageCursor;
import dev.a2atasks.paging.PageTokenCodec;
import dev.a2atasks.paging.WalkBinding;
import dev.a2atasks.task.read.ArtifactView;
import dev.a2atasks.task.read.HistoryTails;
import dev.a2atasks.task.read.MessageView;
import dev.a2atasks.task.read.TaskDocument;
import dev.a2atasks.task.read.TaskPageQueries;
import dev.a2atasks.task.read.TaskReads;
import dev.a2atasks.task.read.TaskProtos;
import dev.a2atasks.task.read.TaskView;
import dev.a2atasks.task.read.TranscriptPages;
import dev.a2atasks.proto.history.v1.ListTaskMessagesResponse;
import dev.a2atasks.proto.history.v1.TaskMessage;
import dev.a2atasks.time.Timestamps;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * ListTasks and GetTask, once, for every binding: validate, scope to the caller, page by keyset,
 * then fetch history tails and artifacts for the whole page in one statement each; one task, with
 * both, in one statement ({@link TaskDocument}). And
 * ListTaskMessages (history-paging extension): a keyset page over one task's transcript.
 *
 * <p>A request naming a tenant other than the caller's sees nothing: an empty list, or
 * TaskNotFound, exactly as if that tenant had no tasks, so tenants cannot be probed.
 */
@ApplicationScoped
public class TaskQueryService {

    private final RequestValidator validator;
    private final TaskPageQueries pages;
    private final TaskReads reads;
    private final HistoryTails history;
    private final TaskDocument documents;
    private final TranscriptPages transcripts;
    private final PageTokenCodec tokens;
    private final ServiceMetrics metrics;

    TaskQueryService(RequestValidator validator, TaskPageQueries pages, TaskReads reads, HistoryTails history,
            TaskDocument documents, TranscriptPages transcripts, PageTokenCodec tokens, ServiceMetrics metrics) {
        this.validator = validator;
        this.pages = pages;
        this.reads = reads;
        this.history = history;
        this.documents = documents;
        this.transcripts = transcripts;
        this.tokens = tokens;
        this.metrics = metrics;
    }

    public Uni<TaskPage> listTasks(Caller caller, ListTasksParams params) {
        ListTasksQuery query = validator.listTasks(params);
        WalkBinding binding = WalkBinding.of(caller.tenant(), caller.subject(), query.contextId(),
                query.status() == null ? null : query.status().name(),
                query.statusTimestampAfter() == null ? null : Timestamps.micros(query.statusTimestampAfter()),
                query.historyLength(), query.includeArtifacts());
        PageCursor cursor = query.pageToken() == null ? null : open(query.pageToken(), binding);
        boolean catchUp = query.statusTimestampAfter() != null;
        if (!inCallersTenant(caller, query.tenant())) {
            metrics.page(cursor == null, catchUp, 0);
            return Uni.createFrom().item(new TaskPage(List.of(), "", query.pageSize(), 0));
        }
        int pageSize = query.pageSize();
        return pages.listPage(caller, query, cursor, pageSize + 1).chain(result -> {
            List<TaskView> rows = result.tasks();
            boolean more = rows.size() > pageSize;
            List<TaskView> page = more ? rows.subList(0, pageSize) : rows;
            Uni<Integer> total;
            if (cursor != null) {
                total = Uni.createFrom().item(cursor.totalSize());
            } else if (!more) {
                total = Uni.createFrom().item(page.size()); // the whole walk is this page: nothing to count
            } else if (result.total() >= 0) {
                total = Uni.createFrom().item((int) Math.min(result.total(), Integer.MAX_VALUE)); // read with the page
            } else {
                var sample = metrics.startTotalSize();
                total = pages.count(caller, query).invoke(() -> metrics.totalSizeComputed(sample));
            }
            return Uni.combine().all().unis(total, withDetails(caller, page, query.historyLength(), query.includeArtifacts()))
                    .with((totalSize, detailed) -> {
                        String next = "";
                        if (more) {
                            TaskView last = page.get(page.size() - 1);
                            next = tokens.seal(new PageCursor(Timestamps.micros(last.statusTimestamp()), last.id(), totalSize), binding);
                        }
                        metrics.page(cursor == null, catchUp, detailed.size());
                        return new TaskPage(detailed, next, pageSize, totalSize);
                    });
        });
    }

    public Uni<TaskView> getTask(Caller caller, GetTaskParams params) {
        GetTaskQuery query = validator.getTask(params);
        if (!inCallersTenant(caller, query.tenant())) {
            return Uni.createFrom().failure(new A2AException.TaskNotFound(query.id()));
        }
        return documents.read(caller, query.id(), query.historyLength())
                .onItem().ifNull().failWith(() -> new A2AException.TaskNotFound(query.id()))
                .invoke(task -> metrics.historyRows(task.history() == null ? 0 : task.history().size()));
    }

    /**
     * GetTask's answer for a stream's snapshot, with the task row it was read under: the caller
     * runs it in a transaction, whose share lock makes the answer match the row's event number.
     * Validation, scoping and refusals are GetTask's.
     */
    public Uni<TaskReads.Snapshot> snapshot(Caller caller, GetTaskParams params) {
        GetTaskQuery query = validator.getTask(params);
        if (!inCallersTenant(caller, query.tenant())) {
            return Uni.createFrom().failure(new A2AException.TaskNotFound(query.id()));
        }
        return reads.lockedSnapshot(caller, query.id(), query.historyLength())
                .onItem().ifNull().failWith(() -> new A2AException.TaskNotFound(query.id()))
                .invoke(snapshot -> metrics.historyRows(snapshot.task().history() == null ? 0 : snapshot.task().history().size()));
    }

    /**
     * One page of a task's transcript, newest or oldest first. The task is scoped exactly as
     * GetTask scopes it (another caller's task, or another tenant's, is TaskNotFound with the same
     * bytes as a task that does not exist); the page token is bound to the caller, the task, the
     * direction and the starting point, and carries the seq of the last message served.
     */
    public Uni<ListTaskMessagesResponse> listTaskMessages(Caller caller, TranscriptParams params) {
        TranscriptQuery query = validator.listTaskMessages(params);
        WalkBinding binding = WalkBinding.ofTranscript(caller.tenant(), caller.subject(), query.taskId(), query.newestFirst(),
                query.startSeq(), query.startMessageId());
        PageCursor cursor = query.pageToken() == null ? null : open(query.pageToken(), binding);
        if (!inCallersTenant(caller, query.tenant())) {
            return Uni.createFrom().failure(new A2AException.TaskNotFound(query.taskId()));
        }
        boolean down = query.newestFirst();
        Uni<Long> bound;
        if (cursor != null) {
            bound = Uni.createFrom().item(down ? cursor.seq() - 1 : cursor.seq() + 1);
        } else if (query.startSeq() != null) {
            bound = Uni.createFrom().item(query.startSeq());
        } else if (query.startMessageId() != null) {
            bound = transcripts.seqOf(caller, query.taskId(), query.startMessageId())
                    .onItem().ifNull().failWith(() -> new A2AException.TaskNotFound(query.taskId()))
                    .map(start -> {
                        if (start.seq() == null) {
                            throw A2AException.invalidParam("startMessageId", "startMessageId names no message of this task");
                        }
                        return start.seq();
                    });
        } else {
            bound = Uni.createFrom().item(down ? Long.MAX_VALUE : 0L);
        }
        int pageSize = query.pageSize();
        return bound.chain(from -> transcripts.window(caller, query.taskId(), down, from, pageSize + 1))
                .onItem().ifNull().failWith(() -> new A2AException.TaskNotFound(query.taskId()))
                .map(window -> {
                    List<MessageView> rows = window.messages();
                    boolean more = rows.size() > pageSize;
                    List<MessageView> page = more ? rows.subList(0, pageSize) : rows;
                    ListTaskMessagesResponse.Builder response = ListTaskMessagesResponse.newBuilder();
                    for (MessageView m : page) {
                        response.addMessages(TaskMessage.newBuilder().setSeq(m.seq())
                                .setMessage(TaskProtos.message(m, query.taskId(), window.contextId())));
                    }
                    if (more) {
                        response.setNextPageToken(tokens.seal(PageCursor.afterSeq(page.get(page.size() - 1).seq()), binding));
                    }
                    return response.build();
                });
    }

    /** Opens a page token; a refusal is counted by its reason before it goes to the caller. */
    private PageCursor open(String token, WalkBinding binding) {
        try {
            return tokens.open(token, binding);
        } catch (A2AException refused) {
            PageTokenCodec.Refusal reason = PageTokenCodec.Refusal.of(refused);
            if (reason != null) {
                metrics.tokenRefused(reason);
            }
            throw refused;
        }
    }

    /**
     * History tails and artifacts for a whole page of the caller's tasks: at most one statement
     * each, never one per task. Both name the caller as the rows' owner beside the task keys.
     */
    private Uni<List<TaskView>> withDetails(Caller caller, List<TaskView> page, int historyLength, boolean includeArtifacts) {
        if (page.isEmpty() || (historyLength == 0 && !includeArtifacts)) {
            return Uni.createFrom().item(page);
        }
        List<Long> keys = page.stream().map(TaskView::pk).toList();
        Uni<Map<Long, List<MessageView>>> tails = historyLength == 0
                ? Uni.createFrom().item(Map.of())
                : history.tails(caller.subject(), keys.toArray(Long[]::new), historyLength);
        Uni<Map<Long, List<ArtifactView>>> artifacts = includeArtifacts
                ? reads.artifacts(caller.subject(), keys)
                : Uni.createFrom().item(Map.of());
        return Uni.combine().all().unis(tails, artifacts).with((h, a) -> page.stream()
                .map(t -> t.with(historyLength == 0 ? null : h.getOrDefault(t.pk(), List.of()),
                        includeArtifacts ? a.getOrDefault(t.pk(), List.of()) : null))
                .toList());
    }

    private static boolean inCallersTenant(Caller caller, String requestedTenant) {
        return requestedTenant.isEmpty() || requestedTenant.equals(caller.tenant());
    }

}
