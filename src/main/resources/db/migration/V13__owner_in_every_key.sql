-- Every key of a caller's rows holds the caller's owner, so that a distributed PostgreSQL (Citus)
-- can distribute these tables by owner and keep a task with its messages and artifacts on one
-- node (docs/operations.md, "Scaling out"). On a single PostgreSQL nothing about the plans
-- changes:
--
--  * messages and artifacts gain the owner of their task (written by every writer with the row;
--    filled here from tasks for the rows that exist);
--  * the keys that lacked it take owner as their LAST column: (pk), (task_pk, seq) and
--    (task_pk, artifact_id) were already unique, so adding a column adds no constraint, and
--    every lookup by task_pk alone still enters the same index at the same place;
--  * the foreign keys from messages and artifacts to tasks include owner, so a child can never
--    name its task under another owner;
--  * replicas of the previous release keep working while this one rolls out (SchemaVersion: a
--    newer schema must serve older replicas): a message or artifact they insert without an owner
--    gets its task's, and their artifact upsert keeps its ON CONFLICT (task_pk, artifact_id)
--    arbiter. Both go in a later migration, once no such replica can be left (a distributed
--    store cannot keep that index: it lacks the distribution column).
--
-- The UPDATEs rewrite both tables once, under their locks: on a large store, run this release's
-- migration in a quiet hour (docs/operations.md, "Migrations and start-up").

ALTER TABLE messages ADD COLUMN owner text COLLATE "C";
ALTER TABLE artifacts ADD COLUMN owner text COLLATE "C";
UPDATE messages m SET owner = t.owner FROM tasks t WHERE t.pk = m.task_pk;
UPDATE artifacts a SET owner = t.owner FROM tasks t WHERE t.pk = a.task_pk;
ALTER TABLE messages ALTER COLUMN owner SET NOT NULL;
ALTER TABLE artifacts ALTER COLUMN owner SET NOT NULL;

ALTER TABLE messages DROP CONSTRAINT messages_task_pk_fkey;
ALTER TABLE artifacts DROP CONSTRAINT artifacts_task_pk_fkey;

ALTER TABLE tasks DROP CONSTRAINT tasks_pkey;
ALTER TABLE tasks ADD CONSTRAINT tasks_pkey PRIMARY KEY (pk, owner);

ALTER TABLE messages DROP CONSTRAINT messages_pkey;
ALTER TABLE messages ADD CONSTRAINT messages_pkey PRIMARY KEY (task_pk, seq, owner);
ALTER TABLE messages ADD CONSTRAINT messages_task_fkey
    FOREIGN KEY (task_pk, owner) REFERENCES tasks (pk, owner) ON DELETE CASCADE;

ALTER TABLE artifacts DROP CONSTRAINT artifacts_pkey;
ALTER TABLE artifacts DROP CONSTRAINT artifacts_order_key;
ALTER TABLE artifacts ADD CONSTRAINT artifacts_pkey PRIMARY KEY (task_pk, artifact_id, owner);
ALTER TABLE artifacts ADD CONSTRAINT artifacts_order_key UNIQUE (task_pk, ord, owner);
ALTER TABLE artifacts ADD CONSTRAINT artifacts_task_fkey
    FOREIGN KEY (task_pk, owner) REFERENCES tasks (pk, owner) ON DELETE CASCADE;

-- For the previous release's writers only (see above).
CREATE FUNCTION owner_from_task() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.owner IS NULL THEN
        SELECT t.owner INTO NEW.owner FROM tasks t WHERE t.pk = NEW.task_pk;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER messages_owner_from_task BEFORE INSERT ON messages
    FOR EACH ROW WHEN (NEW.owner IS NULL) EXECUTE FUNCTION owner_from_task();
CREATE TRIGGER artifacts_owner_from_task BEFORE INSERT ON artifacts
    FOR EACH ROW WHEN (NEW.owner IS NULL) EXECUTE FUNCTION owner_from_task();
CREATE UNIQUE INDEX artifacts_previous_upsert_key ON artifacts (task_pk, artifact_id);

-- The shared rate-limit buckets compare owners byte-wise like every other table (V1), which a
-- distributed store also needs to place a caller's bucket beside the caller's tasks.
ALTER TABLE rate_limit_buckets ALTER COLUMN tenant TYPE text COLLATE "C";
ALTER TABLE rate_limit_buckets ALTER COLUMN owner TYPE text COLLATE "C";
