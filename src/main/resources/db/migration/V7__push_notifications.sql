-- Push notifications (A2A §3.1.7-3.1.10, §4.3): webhook registrations per task, and an outbox
-- of deliveries written in the same transaction as the task event they carry.
-- Both tables lead their keys with the caller's scope (tenant, owner), like every new table.

-- One webhook registration of one task. The token and the credentials are never stored in clear:
-- each is sealed (AES-GCM) with the service's key ring, bound to this row's key, and
-- sealed_with names the ring key, so a rotation can find and re-seal what an old key sealed.
CREATE TABLE push_configs (
    tenant             text        COLLATE "C" NOT NULL,
    owner              text        COLLATE "C" NOT NULL,
    task_id            text        COLLATE "C" NOT NULL,
    id                 text        COLLATE "C" NOT NULL,
    url                text        NOT NULL,
    auth_scheme        text,
    token_sealed       bytea,
    credentials_sealed bytea,
    sealed_with        text,
    created_at         timestamptz NOT NULL,
    PRIMARY KEY (tenant, owner, task_id, id),
    CONSTRAINT push_configs_task_fkey FOREIGN KEY (tenant, owner, task_id)
        REFERENCES tasks (tenant, owner, id) ON DELETE CASCADE,
    CONSTRAINT push_configs_sealed_check CHECK ((token_sealed IS NULL AND credentials_sealed IS NULL) OR sealed_with IS NOT NULL)
);

-- One delivery still owed: one task event to one registration. A delivered row is deleted; a row
-- that ran out of attempts stays as DEAD (for operators) until its registration or task goes.
-- Deleting a registration deletes its rows (no further deliveries); so does deleting the task.
CREATE TABLE push_outbox (
    tenant           text        COLLATE "C" NOT NULL,
    owner            text        COLLATE "C" NOT NULL,
    task_id          text        COLLATE "C" NOT NULL,
    config_id        text        COLLATE "C" NOT NULL,
    event_seq        bigint      NOT NULL,
    state            text        NOT NULL DEFAULT 'PENDING',
    attempts         integer     NOT NULL DEFAULT 0,
    next_attempt_at  timestamptz NOT NULL,
    lease_owner      text,
    lease_expires_at timestamptz,
    last_error       text,
    created_at       timestamptz NOT NULL,
    PRIMARY KEY (tenant, owner, task_id, config_id, event_seq),
    CONSTRAINT push_outbox_config_fkey FOREIGN KEY (tenant, owner, task_id, config_id)
        REFERENCES push_configs (tenant, owner, task_id, id) ON DELETE CASCADE,
    CONSTRAINT push_outbox_event_fkey FOREIGN KEY (tenant, owner, task_id, event_seq)
        REFERENCES task_events (tenant, owner, task_id, seq) ON DELETE CASCADE,
    CONSTRAINT push_outbox_state_check CHECK (state IN ('PENDING', 'DEAD')),
    CONSTRAINT push_outbox_attempts_check CHECK (attempts >= 0),
    CONSTRAINT push_outbox_lease_check CHECK ((lease_owner IS NULL) = (lease_expires_at IS NULL))
);

-- What the delivery workers poll: only rows still owed, by when they are due. Rows that are
-- delivered are gone and dead ones are outside the index, so it stays as small as the backlog.
CREATE INDEX push_outbox_due_idx ON push_outbox (next_attempt_at) WHERE state = 'PENDING';
-- A worker reads back the rows it holds when it records its attempts: only leased rows are here.
CREATE INDEX push_outbox_lease_idx ON push_outbox (lease_owner) WHERE lease_owner IS NOT NULL;
