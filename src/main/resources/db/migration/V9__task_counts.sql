-- ListTasks' totalSize without counting rows (issue 15). The first page of a walk used to count
-- the caller's scope with a scan of an index of it (17 ms at 100,000 tasks, 85 ms at 700,000);
-- these counters give the same number by reading at most 8 rows.
--
-- Four counts per scope (tenant, owner), each kept in up to 8 rows ("slots") summed on read:
--   by_context = false, context_id = '', state = ''   every task of the scope
--   by_context = false, context_id = '', state = S    the scope's tasks in state S
--   by_context = true,  context_id = C,  state = ''   the scope's tasks of context C
--   by_context = true,  context_id = C,  state = S    both
-- (state is never '' in tasks, so '' can mean "any"; context_id can be '', hence by_context.)
-- A writer adds to the slot of its own connection (backend pid mod 8): writers on one busy scope
-- update different rows, so they do not queue behind one row lock until each other's commit.
--
-- Kept by triggers, in the writer's own transaction: the counts must hold for every writer (the
-- service's entities, the mirror's bulk retirements, cascades, bulk SQL such as bench/dataset.sql,
-- a DBA's repair), exactly, and only the database sees them all. The entities still own the task
-- rows; these rows are a read model derived from them, like the commit-time stamp of V5.
-- Inserts and deletes are counted per statement (a bulk load of a million tasks adds a few rows
-- of counts, not a million updates); an update is counted only when it changes the state or the
-- context, which nearly all updates (a message appended, a timestamp) do not.
--
-- task_counts_recompute() rebuilds every counter from the tasks, under a lock that holds writers
-- back meanwhile, and answers how many counts were wrong (docs/operations.md).

CREATE TABLE task_counts (
    tenant     text     COLLATE "C" NOT NULL,
    owner      text     COLLATE "C" NOT NULL,
    by_context boolean  NOT NULL,
    context_id text     COLLATE "C" NOT NULL,
    state      text     NOT NULL,
    slot       smallint NOT NULL,
    n          bigint   NOT NULL,
    PRIMARY KEY (tenant, owner, by_context, context_id, state, slot)
);

-- Adds deltas (one per task row: +1 inserted, -1 deleted) to the four counts of each row's scope,
-- context and state, in this connection's slot. Rows are locked in key order, so two writers
-- never take two counter rows in opposite orders within one statement.
-- (plpgsql, not sql: its statement is planned once per connection, not once per call.)
CREATE FUNCTION task_counts_add(tenants text[], owners text[], contexts text[], states text[], deltas int[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO task_counts AS c (tenant, owner, by_context, context_id, state, slot, n)
    SELECT d.tenant, d.owner, k.by_context, k.context_id, k.state, (pg_backend_pid() % 8)::smallint, sum(d.delta)
    FROM unnest(tenants, owners, contexts, states, deltas) AS d(tenant, owner, context_id, state, delta)
    CROSS JOIN LATERAL (VALUES (false, ''::text, ''::text), (false, '', d.state),
                               (true, d.context_id, ''), (true, d.context_id, d.state)) AS k(by_context, context_id, state)
    GROUP BY d.tenant, d.owner, k.by_context, k.context_id, k.state
    HAVING sum(d.delta) <> 0
    ORDER BY d.tenant, d.owner, k.by_context, k.context_id, k.state
    ON CONFLICT (tenant, owner, by_context, context_id, state, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
END
$$;

CREATE FUNCTION task_counts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM task_counts_add(array_agg(tenant), array_agg(owner), array_agg(context_id), array_agg(state),
                            array_agg(1)) FROM inserted HAVING count(*) > 0;
    RETURN NULL;
END
$$;

CREATE FUNCTION task_counts_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM task_counts_add(array_agg(tenant), array_agg(owner), array_agg(context_id), array_agg(state),
                            array_agg(-1)) FROM deleted HAVING count(*) > 0;
    RETURN NULL;
END
$$;

CREATE FUNCTION task_counts_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM task_counts_add(ARRAY[OLD.tenant, NEW.tenant], ARRAY[OLD.owner, NEW.owner],
                            ARRAY[OLD.context_id, NEW.context_id], ARRAY[OLD.state, NEW.state], ARRAY[-1, 1]);
    RETURN NULL;
END
$$;

CREATE TRIGGER task_counts_inserted AFTER INSERT ON tasks
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION task_counts_inserted();
CREATE TRIGGER task_counts_deleted AFTER DELETE ON tasks
    REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION task_counts_deleted();
CREATE TRIGGER task_counts_moved AFTER UPDATE OF tenant, owner, context_id, state ON tasks
    FOR EACH ROW WHEN (OLD.tenant IS DISTINCT FROM NEW.tenant OR OLD.owner IS DISTINCT FROM NEW.owner
                       OR OLD.context_id IS DISTINCT FROM NEW.context_id OR OLD.state IS DISTINCT FROM NEW.state)
    EXECUTE FUNCTION task_counts_moved();

-- Every count as the tasks say it is now; slot 0 holds it.
CREATE VIEW task_counts_expected AS
    SELECT t.tenant, t.owner, k.by_context, k.context_id, k.state, count(*) AS n
    FROM tasks t
    CROSS JOIN LATERAL (VALUES (false, ''::text, ''::text), (false, '', t.state),
                               (true, t.context_id, ''), (true, t.context_id, t.state)) AS k(by_context, context_id, state)
    GROUP BY t.tenant, t.owner, k.by_context, k.context_id, k.state;

-- Rebuilds the counters from the tasks; answers how many counts differed. Writers of tasks wait
-- for it (SHARE lock: reads go on), so the result is exact at the moment it commits.
CREATE FUNCTION task_counts_recompute() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    wrong bigint;
BEGIN
    LOCK TABLE tasks IN SHARE MODE;
    LOCK TABLE task_counts IN EXCLUSIVE MODE;
    SELECT count(*) INTO wrong
    FROM task_counts_expected e
    FULL JOIN (SELECT tenant, owner, by_context, context_id, state, sum(n) AS n FROM task_counts
               GROUP BY tenant, owner, by_context, context_id, state) AS c
        USING (tenant, owner, by_context, context_id, state)
    WHERE coalesce(e.n, 0) <> coalesce(c.n, 0);
    DELETE FROM task_counts;
    INSERT INTO task_counts (tenant, owner, by_context, context_id, state, slot, n)
        SELECT tenant, owner, by_context, context_id, state, 0, n FROM task_counts_expected;
    RETURN wrong;
END
$$;

INSERT INTO task_counts (tenant, owner, by_context, context_id, state, slot, n)
    SELECT tenant, owner, by_context, context_id, state, 0, n FROM task_counts_expected;
