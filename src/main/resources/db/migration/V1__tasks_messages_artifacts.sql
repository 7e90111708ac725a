-- A2A task store.
--
-- Task ids, tenants and owners compare byte-wise (COLLATE "C"): the ListTasks cursor orders ids
-- the same way Java does, whatever the database's default collation is.

CREATE TABLE tasks (
    pk             bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant         text        COLLATE "C" NOT NULL DEFAULT '',
    owner          text        COLLATE "C" NOT NULL,            -- the caller's subject ("sub")
    id             text        COLLATE "C" NOT NULL,
    context_id     text        COLLATE "C" NOT NULL DEFAULT '',
    state          text        NOT NULL,
    status_ts      timestamptz NOT NULL,                        -- microsecond precision; the ListTasks sort key
    status_message jsonb,                                       -- lf.a2a.v1.Message, ProtoJSON
    metadata       jsonb,                                       -- google.protobuf.Struct, ProtoJSON
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    next_seq       bigint      NOT NULL DEFAULT 0,              -- seq the next message gets
    CONSTRAINT tasks_scope_id_key UNIQUE (tenant, owner, id),
    CONSTRAINT tasks_state_check CHECK (state IN (
        'TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING', 'TASK_STATE_COMPLETED', 'TASK_STATE_FAILED',
        'TASK_STATE_CANCELED', 'TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_REJECTED',
        'TASK_STATE_AUTH_REQUIRED')),
    CONSTRAINT tasks_next_seq_check CHECK (next_seq >= 0)
);

-- ListTasks: every page is one range scan of one of these, led by the caller's scope and ending
-- in the sort key, so WHERE (status_ts, id) < (?, ?) ORDER BY status_ts DESC, id DESC LIMIT n
-- needs no sort and costs the same at any depth.
CREATE INDEX tasks_list_idx
    ON tasks (tenant, owner, status_ts DESC, id DESC);
CREATE INDEX tasks_list_by_context_idx
    ON tasks (tenant, owner, context_id, status_ts DESC, id DESC);
CREATE INDEX tasks_list_by_state_idx
    ON tasks (tenant, owner, state, status_ts DESC, id DESC);

-- A task's messages, one row each, never a growing array on the task row: a history tail is an
-- index range scan on (task_pk, seq).
CREATE TABLE messages (
    task_pk            bigint      NOT NULL REFERENCES tasks (pk) ON DELETE CASCADE,
    seq                bigint      NOT NULL,
    message_id         text        COLLATE "C" NOT NULL,
    role               text        NOT NULL,
    parts              jsonb       NOT NULL DEFAULT '[]',       -- repeated lf.a2a.v1.Part, ProtoJSON
    metadata           jsonb,
    extensions         jsonb,                                   -- array of extension URIs
    reference_task_ids jsonb,                                   -- array of task ids
    created_at         timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (task_pk, seq),
    CONSTRAINT messages_role_check CHECK (role IN ('ROLE_UNSPECIFIED', 'ROLE_USER', 'ROLE_AGENT')),
    CONSTRAINT messages_seq_check CHECK (seq >= 0)
);

-- A task's outputs, in the order they were produced.
CREATE TABLE artifacts (
    task_pk     bigint NOT NULL REFERENCES tasks (pk) ON DELETE CASCADE,
    artifact_id text   COLLATE "C" NOT NULL,
    ord         int    NOT NULL,
    name        text,
    description text,
    parts       jsonb  NOT NULL DEFAULT '[]',                   -- repeated lf.a2a.v1.Part, ProtoJSON
    metadata    jsonb,
    extensions  jsonb,
    PRIMARY KEY (task_pk, artifact_id),
    CONSTRAINT artifacts_order_key UNIQUE (task_pk, ord)
);
