-- Commit lag: a status change must not become visible with a status timestamp much older than
-- its commit. ListTasks sorts and filters on status_ts, and every catch-up (the client's pass,
-- a mirror's "mark minus skew") assumes a change shows up within a small skew of its timestamp.
-- A timestamp taken inside a transaction (now(), or the application's clock) is as old as the
-- transaction is long, so a change committed 12 s after it was stamped would land 12 s behind
-- every reader's mark and never be caught up.
--
-- The fix runs at commit, whatever happened inside the transaction: a deferred constraint
-- trigger re-stamps a status timestamp that was taken during this transaction (not more than
-- 1 s before it began: room for an application clock slightly behind the database's) and is more
-- than 100 ms old by the time the transaction commits. Fast transactions (nearly all) pay one
-- trigger call and no extra write. The bound published to clients (docs/api.md, "Commit lag") is
-- 500 ms: 100 ms here plus the time from this trigger to the commit becoming visible.
--
-- Timestamps given from elsewhere (a mirrored copy keeps its source's, a seeded task its own)
-- are older than the transaction and left alone; a writer that copies timestamps can also say
-- so explicitly for its transaction with  SELECT set_config('a2a.status_ts', 'given', true).

CREATE FUNCTION tasks_status_ts_at_commit() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('a2a.status_ts', true) IS DISTINCT FROM 'given'
            AND NEW.status_ts >= transaction_timestamp() - interval '1 second'
            AND NEW.status_ts < clock_timestamp() - interval '100 milliseconds' THEN
        -- Fires this trigger once more (deferred as well), which then finds a fresh timestamp.
        UPDATE tasks SET status_ts = clock_timestamp() WHERE pk = NEW.pk;
    END IF;
    RETURN NULL;
END
$$;

-- Queued only for rows whose status timestamp was set or changed (an update that leaves it alone,
-- an appended message say, queues nothing), and run at commit.
CREATE CONSTRAINT TRIGGER tasks_status_ts_at_commit_insert
    AFTER INSERT ON tasks
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION tasks_status_ts_at_commit();

CREATE CONSTRAINT TRIGGER tasks_status_ts_at_commit_update
    AFTER UPDATE OF status_ts ON tasks
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (OLD.status_ts IS DISTINCT FROM NEW.status_ts)
    EXECUTE FUNCTION tasks_status_ts_at_commit();
