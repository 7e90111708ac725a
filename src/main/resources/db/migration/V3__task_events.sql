-- The write path (SendMessage, CancelTask, the agent's updates).
--
-- task_events: every status and artifact update a stream or a subscriber is sent, written in the
-- same transaction as the change it describes, numbered per task without gaps (tasks.next_event_seq,
-- taken under the task row lock). A subscriber that reconnects reads on from the last seq it saw.
-- Keyed by the caller's scope first, like every new table, so the store can be distributed by tenant.

ALTER TABLE tasks ADD COLUMN next_event_seq bigint NOT NULL DEFAULT 0;
ALTER TABLE tasks ADD CONSTRAINT tasks_next_event_seq_check CHECK (next_event_seq >= 0);

CREATE TABLE task_events (
    tenant     text        COLLATE "C" NOT NULL,
    owner      text        COLLATE "C" NOT NULL,
    task_id    text        COLLATE "C" NOT NULL,
    seq        bigint      NOT NULL,
    kind       text        NOT NULL,
    payload    jsonb       NOT NULL,                             -- lf.a2a.v1.StreamResponse, ProtoJSON
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant, owner, task_id, seq),
    CONSTRAINT task_events_task_fkey FOREIGN KEY (tenant, owner, task_id)
        REFERENCES tasks (tenant, owner, id) ON DELETE CASCADE,
    CONSTRAINT task_events_kind_check CHECK (kind IN ('STATUS_UPDATE', 'ARTIFACT_UPDATE')),
    CONSTRAINT task_events_seq_check CHECK (seq >= 0)
);

-- SendMessage is idempotent per (task, messageId): a retry finds the message it already stored.
CREATE INDEX messages_message_id_idx ON messages (task_pk, message_id);
