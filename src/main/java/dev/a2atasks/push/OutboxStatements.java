package dev.a2atasks.push;

/**
 * The outbox's hand-written SQL (README, persistence), apart from the code that sends it
 * ({@link Outbox}) so it reads as one piece. Each {@code _OF_OWNER} twin names one owner, for a
 * store distributed by owner (Citus), where a statement that locks or changes outbox rows must run
 * on the one node holding them. Pinned by {@code OutboxPlanTest} and {@code CitusOutboxPlanTest}.
 */
final class OutboxStatements {

    private OutboxStatements() {
    }

    /**
     * The whole claim in one statement (one round trip, no explicit transaction: its row locks last
     * as long as the statement, the lease it writes outlives them). Read from the top:
     * <ol>
     * <li>{@code delivered}: the rows the worker delivered since its last claim, deleted ($12-$16
     * their keys, only while $10 holds them). The statement's reads still see them (one snapshot),
     * so {@code heads} passes over them: the event a registration owes after them is claimed now,
     * not one round later.</li>
     * <li>{@code heads}: the oldest due rows whose registration owes no earlier event, each the head
     * of what its registration is owed. Locks the row and its registration (FOR NO KEY UPDATE, which
     * blocks neither the foreign-key checks of new events nor readers); a registration another worker
     * is claiming from is skipped, so two workers never take rows of one registration at once. Tenants
     * and URLs whose shares are all in flight are not looked at.</li>
     * <li>{@code taken}: each head takes one share of its tenant and one of its URL, the soonest due
     * first, while the worker has shares left ($2-$5 what it has in flight, $6 and $7 the shares).</li>
     * <li>{@code followers}: for each head taken, the rows still owed to its registration after it,
     * in order, up to $9 each, as far as the first one not free to send now (a retry not yet due,
     * another worker's lease): every row after that one must wait for it. The registration's row lock
     * keeps other workers off them.</li>
     * <li>{@code leased}: the heads and their followers leased to $10 until $11.</li>
     * </ol>
     * Then each leased row with its registration and its event, a registration's rows together and in
     * order. $1 now, $8 how many heads at most.
     */
    static final String CLAIM = """
            WITH delivered AS (
                DELETE FROM push_outbox o
                USING unnest($12::text[], $13::text[], $14::text[], $15::text[], $16::bigint[]) AS k(tenant, owner, task_id, config_id, event_seq)
                WHERE o.tenant = k.tenant AND o.owner = k.owner AND o.task_id = k.task_id AND o.config_id = k.config_id
                  AND o.event_seq = k.event_seq AND o.lease_owner = $10
                RETURNING o.tenant, o.owner, o.task_id, o.config_id, o.event_seq
            ), tenant_use AS (
                SELECT * FROM unnest($2::text[], $3::int[]) AS u(tenant, in_flight)
            ), url_use AS (
                SELECT * FROM unnest($4::text[], $5::int[]) AS u(url, in_flight)
            ), heads AS (
                SELECT o.tenant, o.owner, o.task_id, o.config_id, o.event_seq, o.next_attempt_at, c.url
                FROM push_outbox o
                JOIN push_configs c ON c.tenant = o.tenant AND c.owner = o.owner AND c.task_id = o.task_id AND c.id = o.config_id
                WHERE o.state = 'PENDING' AND o.next_attempt_at <= $1
                  AND (o.lease_expires_at IS NULL OR o.lease_expires_at < $1)
                  AND NOT EXISTS (SELECT 1 FROM push_outbox p
                                  WHERE p.tenant = o.tenant AND p.owner = o.owner AND p.task_id = o.task_id
                                    AND p.config_id = o.config_id AND p.state = 'PENDING' AND p.event_seq < o.event_seq
                                    AND NOT EXISTS (SELECT 1 FROM delivered d
                                                    WHERE d.tenant = p.tenant AND d.owner = p.owner AND d.task_id = p.task_id
                                                      AND d.config_id = p.config_id AND d.event_seq = p.event_seq))
                  AND o.tenant <> ALL (ARRAY(SELECT tenant FROM tenant_use WHERE in_flight >= $6))
                  AND c.url <> ALL (ARRAY(SELECT url FROM url_use WHERE in_flight >= $7))
                ORDER BY o.next_attempt_at
                LIMIT $8
                FOR NO KEY UPDATE OF o, c SKIP LOCKED
            ), taken AS (
                SELECT h.tenant, h.owner, h.task_id, h.config_id, h.event_seq
                FROM (SELECT h.*,
                             row_number() OVER (PARTITION BY h.tenant ORDER BY h.next_attempt_at, h.owner, h.task_id, h.config_id) AS nth_of_tenant,
                             row_number() OVER (PARTITION BY h.url ORDER BY h.next_attempt_at, h.owner, h.task_id, h.config_id) AS nth_of_url
                      FROM heads h) AS h
                LEFT JOIN tenant_use t ON t.tenant = h.tenant
                LEFT JOIN url_use u ON u.url = h.url
                WHERE h.nth_of_tenant <= $6 - coalesce(t.in_flight, 0)
                  AND h.nth_of_url <= $7 - coalesce(u.in_flight, 0)
            ), followers AS (
                SELECT f.tenant, f.owner, f.task_id, f.config_id, f.event_seq
                FROM (SELECT t.tenant, t.owner, t.task_id, t.config_id, o.event_seq,
                             bool_and(o.next_attempt_at <= $1 AND (o.lease_expires_at IS NULL OR o.lease_expires_at < $1))
                                 OVER (PARTITION BY t.tenant, t.owner, t.task_id, t.config_id ORDER BY o.event_seq) AS free_so_far
                      FROM taken t
                      CROSS JOIN LATERAL (
                          SELECT o.event_seq, o.next_attempt_at, o.lease_expires_at
                          FROM push_outbox o
                          WHERE o.tenant = t.tenant AND o.owner = t.owner AND o.task_id = t.task_id AND o.config_id = t.config_id
                            AND o.event_seq > t.event_seq AND o.state = 'PENDING'
                          ORDER BY o.event_seq
                          LIMIT $9) AS o) AS f
                WHERE f.free_so_far
            ), leased AS (
                UPDATE push_outbox o SET lease_owner = $10, lease_expires_at = $11
                FROM (SELECT * FROM taken UNION ALL SELECT * FROM followers) AS k
                WHERE o.tenant = k.tenant AND o.owner = k.owner AND o.task_id = k.task_id AND o.config_id = k.config_id
                  AND o.event_seq = k.event_seq
                RETURNING o.tenant, o.owner, o.task_id, o.config_id, o.event_seq, o.attempts
            )
            SELECT l.tenant, l.owner, l.task_id, l.config_id, l.event_seq, l.attempts,
                   c.url, c.auth_scheme, c.token_sealed, c.credentials_sealed,
                   e.payload::text AS payload, e.created_at AS event_created_at
            FROM leased l
            JOIN push_configs c ON c.tenant = l.tenant AND c.owner = l.owner AND c.task_id = l.task_id AND c.id = l.config_id
            JOIN task_events e ON e.tenant = l.tenant AND e.owner = l.owner AND e.task_id = l.task_id AND e.seq = l.event_seq
            ORDER BY l.tenant, l.owner, l.task_id, l.config_id, l.event_seq""";

    /**
     * Citus: the claim one owner at a time, as three statements in one transaction. There a
     * statement of several CTEs runs step by step through the coordinator (pgbench on three nodes:
     * 13.8 ms for one such write against 3.4 ms for router statements), so the owner's rows are
     * claimed by these instead:
     * <ul>
     * <li>{@code HEADS_OF_OWNER}: {@code heads} of {@link #CLAIM}, with the registration's columns
     * and the event ($2 tenants, $3 URLs whose shares are all in flight, $4 how many, $5 the owner);
     * the worker decides the shares row by row;</li>
     * <li>{@code FOLLOWERS_OF_OWNER}: for each head taken ($1-$5 its key), the rows owed after it, up
     * to $7 each, with whether each is free to send now ($6 now), $8 the owner;</li>
     * <li>{@code LEASE_OF_OWNER}: the rows taken ($3-$7 their keys) leased to $1 until $2, $8 the owner.</li>
     * </ul>
     */
    static final String HEADS_OF_OWNER = """
            SELECT o.tenant, o.owner, o.task_id, o.config_id, o.event_seq, o.attempts,
                   c.url, c.auth_scheme, c.token_sealed, c.credentials_sealed,
                   e.payload::text AS payload, e.created_at AS event_created_at
            FROM push_outbox o
            JOIN push_configs c ON c.tenant = o.tenant AND c.owner = o.owner AND c.task_id = o.task_id AND c.id = o.config_id
            JOIN task_events e ON e.tenant = o.tenant AND e.owner = o.owner AND e.task_id = o.task_id AND e.seq = o.event_seq
            WHERE o.state = 'PENDING' AND o.next_attempt_at <= $1 AND o.owner = $5
              AND (o.lease_expires_at IS NULL OR o.lease_expires_at < $1)
              AND NOT EXISTS (SELECT 1 FROM push_outbox p
                              WHERE p.tenant = o.tenant AND p.owner = o.owner AND p.task_id = o.task_id
                                AND p.config_id = o.config_id AND p.state = 'PENDING' AND p.event_seq < o.event_seq)
              AND o.tenant <> ALL (CAST($2 AS text[])) AND c.url <> ALL (CAST($3 AS text[]))
            ORDER BY o.next_attempt_at
            LIMIT $4
            FOR NO KEY UPDATE OF o, c SKIP LOCKED""";

    /** See {@link #HEADS_OF_OWNER}. */
    static final String FOLLOWERS_OF_OWNER = """
            SELECT h.tenant, h.owner, h.task_id, h.config_id, f.event_seq, f.attempts, f.free, f.payload, f.event_created_at
            FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[]) AS h(tenant, owner, task_id, config_id, event_seq)
            CROSS JOIN LATERAL (
                SELECT o.event_seq, o.attempts,
                       o.next_attempt_at <= $6 AND (o.lease_expires_at IS NULL OR o.lease_expires_at < $6) AS free,
                       e.payload::text AS payload, e.created_at AS event_created_at
                FROM push_outbox o
                JOIN task_events e ON e.tenant = o.tenant AND e.owner = o.owner AND e.task_id = o.task_id AND e.seq = o.event_seq
                WHERE o.tenant = h.tenant AND o.owner = h.owner AND o.task_id = h.task_id AND o.config_id = h.config_id AND o.owner = $8
                  AND o.event_seq > h.event_seq AND o.state = 'PENDING'
                ORDER BY o.event_seq
                LIMIT $7) AS f
            ORDER BY h.tenant, h.owner, h.task_id, h.config_id, f.event_seq""";

    /** See {@link #HEADS_OF_OWNER}. */
    static final String LEASE_OF_OWNER = """
            UPDATE push_outbox o SET lease_owner = $1, lease_expires_at = $2
            FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[]) AS k(tenant, owner, task_id, config_id, event_seq)
            WHERE o.tenant = k.tenant AND o.owner = k.owner AND o.task_id = k.task_id AND o.config_id = k.config_id
              AND o.event_seq = k.event_seq AND o.owner = $8""";

    /**
     * Citus: the owners with due rows, the soonest first, up to $3 ($1 now, $2 tenants whose shares
     * are all in flight), read without a lock; each one's rows are then claimed by {@link #HEADS_OF_OWNER}.
     */
    static final String DUE_OWNERS = """
            SELECT o.owner FROM push_outbox o
            WHERE o.state = 'PENDING' AND o.next_attempt_at <= $1
              AND (o.lease_expires_at IS NULL OR o.lease_expires_at < $1)
              AND o.tenant <> ALL (CAST($2 AS text[]))
            GROUP BY o.owner
            ORDER BY min(o.next_attempt_at)
            LIMIT $3""";

    /** Deletes the rows delivered ($2-$6 their keys) that $1 still holds (a lease passed to another worker is its). */
    static final String DELIVERED = """
            DELETE FROM push_outbox o
            USING unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[]) AS k(tenant, owner, task_id, config_id, event_seq)
            WHERE o.tenant = k.tenant AND o.owner = k.owner AND o.task_id = k.task_id AND o.config_id = k.config_id
              AND o.event_seq = k.event_seq AND o.lease_owner = $1""";
    /** {@link #DELIVERED} of rows of one owner ($7). */
    static final String DELIVERED_OF_OWNER = DELIVERED + " AND o.owner = $7";
}
