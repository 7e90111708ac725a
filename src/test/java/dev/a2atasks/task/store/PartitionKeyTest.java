package dev.a2atasks.task.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.support.Db;
import io.agroal.api.AgroalDataSource;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.inject.Inject;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The UPDATE and DELETE statements Hibernate writes for a task, a message and an artifact name the
 * row's owner beside its key ({@code @PartitionKey}), as PostgreSQL received them: on a store
 * distributed by owner (V13) each then goes to the one node holding the row, not to every shard.
 */
@QuarkusTest
class PartitionKeyTest {

    private static final String TENANT = "PartitionKeyTest";

    @Inject
    AgroalDataSource dataSource;

    @Test
    void entityUpdatesAndDeletesNameTheOwner() throws Throwable {
        Db db = new Db(dataSource);
        db.clearTenant(TENANT);
        long pk = db.insertTask(TENANT, "alice", "t1", "ctx", "TASK_STATE_WORKING", Instant.parse("2026-02-01T00:00:00Z"));
        db.insertMessages(pk, 2);
        db.insertArtifact(pk, "out", 0);
        db.resetStatementStatistics();

        VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> TaskRows.lockTask(new Caller(TENANT, "alice"), "t1")
                .invoke(task -> task.updatedAt = OffsetDateTime.now(ZoneOffset.UTC))
                .chain(task -> MessageEntity.<MessageEntity>list("taskPk = ?1 and owner = ?2 order by seq", pk, "alice"))
                .invoke(messages -> messages.get(0).metadataJson = "{\"edited\":true}")
                .chain(messages -> messages.get(1).delete())
                .chain(() -> ArtifactEntity.<ArtifactEntity>list("taskPk = ?1 and owner = ?2", pk, "alice"))
                .invoke(artifacts -> artifacts.get(0).name = "renamed")));

        // Hibernate's statements, in its lower case (the service's own SQL is written in upper case).
        List<String> written = List.of(db.queryText("SELECT query FROM pg_stat_statements"
                + " WHERE query ~ '^(update|delete from) (tasks|messages|artifacts) ' ORDER BY query").split("\n"));
        assertEquals(List.of("delete from messages", "update artifacts", "update messages", "update tasks"),
                written.stream().map(q -> q.replaceAll("^(update \\w+|delete from \\w+).*", "$1")).toList(),
                String.join("\n", written));
        for (String statement : written) {
            assertTrue(statement.matches("(?is).* where .*\\bowner=\\$\\d+.*"), statement);
        }
        assertEquals("renamed", db.queryText("SELECT name FROM artifacts WHERE task_pk = " + pk).trim());
        assertEquals(1, db.queryLong("SELECT count(*) FROM messages WHERE task_pk = " + pk));
    }
}
