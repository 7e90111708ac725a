-- Whether a task has ever had a webhook registration.
--
-- Every event of a task used to run the outbox's insert-select, even for the (nearly all) tasks
-- with no webhook: one more statement per event, answering "no rows". push_registered says when
-- that statement can be skipped. It is set by this trigger, in the registration's own
-- transaction, whichever build of the service writes the registration (an older replica during a
-- rolling upgrade does not know the column), and never cleared: deleting registrations only costs
-- the statement again, never a delivery. Registrations take the task's row lock first (PushStore),
-- so the UPDATE below never waits on anything the registering transaction does not already hold.

ALTER TABLE tasks ADD COLUMN push_registered boolean NOT NULL DEFAULT false;

UPDATE tasks t SET push_registered = true
WHERE EXISTS (SELECT 1 FROM push_configs c WHERE c.tenant = t.tenant AND c.owner = t.owner AND c.task_id = t.id);

CREATE FUNCTION tasks_push_registered() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE tasks SET push_registered = true
    WHERE tenant = NEW.tenant AND owner = NEW.owner AND id = NEW.task_id AND NOT push_registered;
    RETURN NULL;
END
$$;

CREATE TRIGGER push_configs_registered AFTER INSERT ON push_configs
    FOR EACH ROW EXECUTE FUNCTION tasks_push_registered();
