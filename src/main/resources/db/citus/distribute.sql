-- Distributes the schema on Citus by owner (a2a.database.distribution=citus; db.CitusDistribution
-- runs it after every migration, so it is written to be run again: a table already distributed is
-- left as it is). docs/operations.md, "Scaling out", says why owner and what each node holds.

-- Triggers on distributed tables (the task counters, the registrations' mark on their task) run on
-- the node that holds the row; Citus asks for this switch before it takes a table that has one.
SET citus.enable_unsafe_triggers = on;

-- V13's help for replicas of the release before it, which cannot run on a distributed store (they
-- write messages without the distribution column): its trigger, and an index Citus cannot keep.
DROP TRIGGER IF EXISTS messages_owner_from_task ON messages;
DROP TRIGGER IF EXISTS artifacts_owner_from_task ON artifacts;
DROP INDEX IF EXISTS artifacts_previous_upsert_key;

DO $$
DECLARE
    scoped text;
    shared text;
BEGIN
    -- A caller's rows, by owner, every table co-located with tasks: a task, its messages,
    -- artifacts, events, webhooks, deliveries and counters sit on one node.
    FOREACH scoped IN ARRAY ARRAY['tasks', 'messages', 'artifacts', 'task_events', 'push_configs', 'push_outbox',
                                  'task_counts', 'rate_limit_buckets'] LOOP
        IF NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = scoped::regclass) THEN
            PERFORM create_distributed_table(scoped, 'owner',
                                             colocate_with => CASE WHEN scoped = 'tasks' THEN 'default' ELSE 'tasks' END);
        END IF;
    END LOOP;
    -- Small, global, keyed by mirror: a copy on every node.
    FOREACH shared IN ARRAY ARRAY['mirror_marks', 'mirror_leases'] LOOP
        IF NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = shared::regclass) THEN
            PERFORM create_reference_table(shared);
        END IF;
    END LOOP;
END
$$;
