-- V5's commit re-stamp, written so that a distributed store (Citus, by owner) can run it too. The
-- behaviour is V5's; two things change in the one UPDATE it makes:
--
--  * the row is named by (pk, owner), the key V13 gave tasks: on a distributed store the trigger
--    runs on the node holding the row, and a statement naming the distribution column stays there;
--  * the new timestamp is read into a variable first: Citus refuses a volatile function such as
--    clock_timestamp() inside an UPDATE of a distributed table, and takes a value.

CREATE OR REPLACE FUNCTION tasks_status_ts_at_commit() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    stamp timestamptz;
BEGIN
    IF current_setting('a2a.status_ts', true) IS DISTINCT FROM 'given'
            AND NEW.status_ts >= transaction_timestamp() - interval '1 second'
            AND NEW.status_ts < clock_timestamp() - interval '100 milliseconds' THEN
        -- Fires this trigger once more (deferred as well), which then finds a fresh timestamp.
        stamp := clock_timestamp();
        UPDATE tasks SET status_ts = stamp WHERE pk = NEW.pk AND owner = NEW.owner;
    END IF;
    RETURN NULL;
END
$$;
