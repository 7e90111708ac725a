-- Runs: one agent run per task at a time, fenced.
--
-- A run is one turn of the agent on a task, started by one user message. Until V10 a lease named
-- only the process, so two messages to a working task started two runs at once, and the first
-- run to finish gave up a lease the other still needed. Now the task row names the run:
--
--   run_id          the run that owns the task, or NULL when none does. Every write of the run
--                   (status, artifact, renewal) checks it under the row lock: a run that was taken
--                   over, canceled or has ended its turn cannot write (the fencing token).
--                   A run always holds a lease (lease_owner, lease_expires_at: V4).
--   run_input_seq   the history seq of the user message the current (or last) run answers.
--   queued_inputs   user messages stored while a run was going, not yet handed to a run. When the
--                   run ends its turn waiting for input, the next one starts a new run in the same
--                   transaction; when it ends the task, they stay in the history unanswered.
--
-- task_events.input_seq: the run_input_seq of the run that wrote the event (NULL: written by no
-- run: a cancel, a sweep). A stream for a queued message closes on its own run's end, not on the
-- end of the run before it.

ALTER TABLE tasks ADD COLUMN run_id uuid;
ALTER TABLE tasks ADD COLUMN run_input_seq bigint;
ALTER TABLE tasks ADD COLUMN queued_inputs integer NOT NULL DEFAULT 0;
ALTER TABLE tasks ADD CONSTRAINT tasks_run_leased_check CHECK (run_id IS NULL OR lease_owner IS NOT NULL);
ALTER TABLE tasks ADD CONSTRAINT tasks_queued_inputs_check CHECK (queued_inputs >= 0);

ALTER TABLE task_events ADD COLUMN input_seq bigint;

-- Idempotent first messages: a SendMessage without a taskId whose messageId this caller already
-- used returns the task that message created, and runs nothing. Unique per caller scope, so a
-- retry racing the original finds it; tasks created before V10 (and mirrored copies) have none.
ALTER TABLE tasks ADD COLUMN origin_message_id text COLLATE "C";
CREATE UNIQUE INDEX tasks_origin_message_idx ON tasks (tenant, owner, origin_message_id)
    WHERE origin_message_id IS NOT NULL;

-- Mirror copies name their source: a reconciliation retires only its own source's copies, and a
-- sync never overwrites a task of the same scope that the owner created or another source copied.
-- Copies stored before V10 have none; a source adopts such a task on its next sync when it was
-- never run by this service (docs: mirror).
ALTER TABLE tasks ADD COLUMN mirror_source text COLLATE "C";
CREATE INDEX tasks_mirror_copies_idx ON tasks (tenant, owner, mirror_source, id) WHERE mirror_source IS NOT NULL;

-- One replica at a time syncs a mirror source: the replica holding the source's row until
-- expires_at (renewed while its sync runs). A small global table: one row per configured source.
CREATE TABLE mirror_leases (
    mirror     text        PRIMARY KEY,
    owner      text        NOT NULL,
    expires_at timestamptz NOT NULL
);

-- V3 and V8 created the same index on messages (task_pk, message_id); V8's name stays.
DROP INDEX messages_message_id_idx;
