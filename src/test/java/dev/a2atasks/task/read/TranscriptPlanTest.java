package dev.a2atasks.task.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.a2atasks.support.BindingTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The statements of ListTaskMessages (history-paging extension) as PostgreSQL runs them, on a
 * 100,000-message transcript: the task by its scoped key, then one range scan of the messages key
 * that reads the page and stops, at the first, middle and last page alike; a message id by the
 * index of V8.
 */
@QuarkusTest
class TranscriptPlanTest extends BindingTest {

    private static final String TENANT = "TranscriptPlanTest";
    private static final int MESSAGES = 100_000;

    @Test
    void everyPageIsOneRangeScanOfTheMessagesKeyAtAnyDepth() {
        db.clearTenant(TENANT);
        long pk = db.insertTask(TENANT, "alice", "long", "ctx", "TASK_STATE_WORKING", Instant.parse("2026-07-01T00:00:00Z"));
        db.insertMessages(pk, MESSAGES);
        db.execute("ANALYZE messages");
        for (boolean newestFirst : List.of(true, false)) {
            for (long depth : List.of(0L, 50_000L, 99_900L)) {
                long bound = newestFirst ? MESSAGES - 1 - depth : depth;
                String plan = explain((newestFirst ? TranscriptPages.NEWEST_FIRST : TranscriptPages.OLDEST_FIRST)
                        .replace("$4", Long.toString(bound)).replace("$5", "101"));
                Matcher scan = Pattern.compile("Index Scan" + (newestFirst ? " Backward" : "")
                        + " using messages_pkey on messages \\(actual rows=(\\d+)(\\.\\d+)? loops=1\\)").matcher(plan);
                assertTrue(scan.find(), plan);
                long rows = Math.min(101, MESSAGES - depth); // the last page has fewer left to read
                assertEquals(Long.toString(rows), scan.group(1), "depth " + depth + ": the page and one more row, nothing else\n" + plan);
                // The task: an index seek on the scope and the id (which scope index the planner picks
                // depends on the scope's size; every one of them leads with tenant and owner).
                assertTrue(Pattern.compile("Index (Only )?Scan using \\w+ on tasks t \\(actual rows=1 loops=1\\)\\s+Index Cond: "
                        + "\\(\\(tenant = '" + TENANT + "'::text\\) AND \\(owner = 'alice'::text\\) AND \\(id = 'long'::text\\)\\)")
                        .matcher(plan).find(), plan);
                assertTrue(!plan.contains("Seq Scan") && !plan.contains("Rows Removed by Filter"), plan);
            }
        }
        String start = explain(TranscriptPages.SEQ_OF_MESSAGE.replace("$4", "'m77777'"));
        assertTrue(start.contains("messages_by_message_id_idx"), start);
        assertTrue(!start.contains("Seq Scan") && !start.contains("Rows Removed by Filter"), start);
    }

    private String explain(String sql) {
        db.execute("DEALLOCATE ALL");
        return db.queryText("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) "
                + sql.replace("$1", "'" + TENANT + "'").replace("$2", "'alice'").replace("$3", "'long'"));
    }
}
