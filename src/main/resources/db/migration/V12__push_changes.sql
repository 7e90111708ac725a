-- Registrations that change while an event is being recorded.
--
-- A run's updates are one statement each (RunStatements), and for a task with webhooks that
-- statement also writes the event's outbox rows, reading push_configs. Under READ COMMITTED it
-- reads with the snapshot it started with, also after waiting for the task's row lock: a
-- registration made (or deleted) by the transaction it waited for would be unseen, and the event
-- not owed to a webhook registered before it (or owed to one just deleted, which its foreign key
-- refuses). push_changes moves with every registration made or deleted, in that transaction; the
-- statement compares the value its snapshot saw with the locked row's, and on a difference writes
-- nothing and leaves the update to the entity path, whose statements after the lock see the
-- registrations as they are.

ALTER TABLE tasks ADD COLUMN push_changes integer NOT NULL DEFAULT 0;

CREATE OR REPLACE FUNCTION tasks_push_registered() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    config push_configs;
BEGIN
    IF TG_OP = 'DELETE' THEN
        config := OLD;
    ELSE
        config := NEW;
    END IF;
    UPDATE tasks SET push_registered = true, push_changes = push_changes + 1
    WHERE tenant = config.tenant AND owner = config.owner AND id = config.task_id;
    RETURN NULL;
END
$$;

DROP TRIGGER push_configs_registered ON push_configs;

CREATE TRIGGER push_configs_changed AFTER INSERT OR DELETE ON push_configs
    FOR EACH ROW EXECUTE FUNCTION tasks_push_registered();
