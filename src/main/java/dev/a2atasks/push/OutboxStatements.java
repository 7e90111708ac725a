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
     * The oldest due rows whose registration owes no earlier event: each the head of what its
     * registration is owed. Locks the row and its registration (FOR NO KEY UPDATE, which blocks
     * neither the foreign-key checks of new events nor readers); a registration another worker is
     * claiming from is skipped, so two workers never take rows of one registration at once. $1
     * now, $2 tenants and $3 URLs whose shares are all in flight, $4 how many.
     */
    private static final String HEADS_OF = """
            SELECT o.tenant, o.owner, o.task_id, o.config_id, o.event_seq, o.attempts,
                   c.url, c.auth_scheme, c.token_sealed, c.credentials_sealed,
                   e.payload::text AS payload, e.created_at AS event_created_at
            FROM push_outbox o
            JOIN push_configs c ON c.tenant = o.tenant AND c.owner = o.owner AND c.task_id = o.task_id AND c.id = o.config_id
            JOIN task_events e ON e.tenant = o.tenant AND e.owner = o.owner AND e.task_id = o.task_id AND e.seq = o.event_seq
            WHERE o.state = 'PENDING' AND o.next_attempt_at <= $1%s
              AND (o.lease_expires_at IS NULL OR o.lease_expires_at < $1)
              AND NOT EXISTS (SELECT 1 FROM push_outbox p
                              WHERE p.tenant = o.tenant AND p.owner = o.owner AND p.task_id = o.task_id
                                AND p.config_id = o.config_id AND p.state = 'PENDING' AND p.event_seq < o.event_seq)
              AND o.tenant <> ALL (CAST($2 AS text[])) AND c.url <> ALL (CAST($3 AS text[]))
            ORDER BY o.next_attempt_at
            LIMIT $4
            FOR NO KEY UPDATE OF o, c SKIP LOCKED""";
    static final String HEADS = HEADS_OF.formatted("");
    /** {@link #HEADS} of one owner ($5). */
    static final String HEADS_OF_OWNER = HEADS_OF.formatted(" AND o.owner = $5");

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

    /**
     * For each head taken ($1-$5 its key), the rows still owed to its registration after it, in
     * order, up to $7 each, and whether each is free to send now ($6 now): due and not leased. The
     * registration's row lock (taken by {@link #HEADS}) keeps other workers off them.
     */
    private static final String FOLLOWERS_OF = """
            SELECT h.tenant, h.owner, h.task_id, h.config_id, f.event_seq, f.attempts, f.free, f.payload, f.event_created_at
            FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[]) AS h(tenant, owner, task_id, config_id, event_seq)
            CROSS JOIN LATERAL (
                SELECT o.event_seq, o.attempts,
                       o.next_attempt_at <= $6 AND (o.lease_expires_at IS NULL OR o.lease_expires_at < $6) AS free,
                       e.payload::text AS payload, e.created_at AS event_created_at
                FROM push_outbox o
                JOIN task_events e ON e.tenant = o.tenant AND e.owner = o.owner AND e.task_id = o.task_id AND e.seq = o.event_seq
                WHERE o.tenant = h.tenant AND o.owner = h.owner AND o.task_id = h.task_id AND o.config_id = h.config_id%s
                  AND o.event_seq > h.event_seq AND o.state = 'PENDING'
                ORDER BY o.event_seq
                LIMIT $7) AS f
            ORDER BY h.tenant, h.owner, h.task_id, h.config_id, f.event_seq""";
    static final String FOLLOWERS = FOLLOWERS_OF.formatted("");
    /** {@link #FOLLOWERS} of heads of one owner ($8). */
    static final String FOLLOWERS_OF_OWNER = FOLLOWERS_OF.formatted(" AND o.owner = $8");

    /** Leases the rows taken ($3-$7 their keys) to $1 until $2. */
    static final String LEASE = """
            UPDATE push_outbox o SET lease_owner = $1, lease_expires_at = $2
            FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[]) AS k(tenant, owner, task_id, config_id, event_seq)
            WHERE o.tenant = k.tenant AND o.owner = k.owner AND o.task_id = k.task_id AND o.config_id = k.config_id
              AND o.event_seq = k.event_seq""";
    /** {@link #LEASE} of rows of one owner ($8). */
    static final String LEASE_OF_OWNER = LEASE + " AND o.owner = $8";

    /** Deletes the rows delivered ($2-$6 their keys) that $1 still holds (a lease passed to another worker is its). */
    static final String DELIVERED = """
            DELETE FROM push_outbox o
            USING unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[]) AS k(tenant, owner, task_id, config_id, event_seq)
            WHERE o.tenant = k.tenant AND o.owner = k.owner AND o.task_id = k.task_id AND o.config_id = k.config_id
              AND o.event_seq = k.event_seq AND o.lease_owner = $1""";
    /** {@link #DELIVERED} of rows of one owner ($7). */
    static final String DELIVERED_OF_OWNER = DELIVERED + " AND o.owner = $7";
}
