-- a2a-tasks benchmark dataset, set-based. Placeholders ${...} are filled in by the generator.
--
--   scope ('bench','big')     ${big_tasks} tasks: the deep walks (depth, bindings)
--   scope ('bench','walker')  ${walk_tasks} tasks: the full catch-up walk
--   other scopes              ${other_tasks} tasks over 3 tenants x 3 owners
-- Every task: 1000 contexts, 8 states; every 10th task ties its status timestamp with the one
-- before it; ${messages_per_task} messages each; every 20th task has an artifact. Two more tasks
-- in ('bench','big'): 'hist-5' with 5 messages and 'hist-long' with ${long_history} messages.

DELETE FROM tasks WHERE tenant LIKE 'bench%';

INSERT INTO tasks (tenant, owner, id, context_id, state, status_ts, next_seq)
SELECT CASE WHEN g <= ${big_tasks} + ${walk_tasks} THEN 'bench' ELSE 'bench-' || (g % 3) END,
       CASE WHEN g <= ${big_tasks} THEN 'big'
            WHEN g <= ${big_tasks} + ${walk_tasks} THEN 'walker'
            ELSE 'owner-' || (g / 3 % 3) END,
       'task-' || lpad(g::text, 8, '0'),
       'ctx-' || (g % 1000),
       (ARRAY['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING', 'TASK_STATE_COMPLETED', 'TASK_STATE_FAILED',
              'TASK_STATE_CANCELED', 'TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_REJECTED',
              'TASK_STATE_AUTH_REQUIRED'])[1 + g % 8],
       timestamptz '2026-01-01 00:00:00+00'
           + (CASE WHEN g % 10 = 0 THEN g - 1 ELSE g END) * interval '1 second',
       ${messages_per_task}
FROM generate_series(1, ${big_tasks} + ${walk_tasks} + ${other_tasks}) AS g;

INSERT INTO messages (task_pk, owner, seq, message_id, role, parts)
SELECT t.pk, t.owner, s, t.id || '-m' || s,
       CASE WHEN s % 2 = 0 THEN 'ROLE_USER' ELSE 'ROLE_AGENT' END,
       jsonb_build_array(jsonb_build_object('text', 'message ' || s || ' of ' || t.id))
FROM tasks t CROSS JOIN generate_series(0, ${messages_per_task} - 1) AS s
WHERE t.tenant LIKE 'bench%';

INSERT INTO artifacts (task_pk, owner, artifact_id, ord, name, parts)
SELECT t.pk, t.owner, 'result', 0, 'result of ' || t.id, jsonb_build_array(jsonb_build_object('text', 'output of ' || t.id))
FROM tasks t
WHERE t.tenant LIKE 'bench%' AND right(t.id, 2)::int % 20 = 0;

INSERT INTO tasks (tenant, owner, id, context_id, state, status_ts, next_seq)
VALUES ('bench', 'big', 'hist-5', 'ctx-history', 'TASK_STATE_INPUT_REQUIRED', timestamptz '2025-12-31 00:00:00+00', 5),
       ('bench', 'big', 'hist-long', 'ctx-history', 'TASK_STATE_INPUT_REQUIRED', timestamptz '2025-12-31 00:00:01+00', ${long_history});

INSERT INTO messages (task_pk, owner, seq, message_id, role, parts)
SELECT t.pk, t.owner, s, t.id || '-m' || s,
       CASE WHEN s % 2 = 0 THEN 'ROLE_USER' ELSE 'ROLE_AGENT' END,
       jsonb_build_array(jsonb_build_object('text', 'turn ' || s))
FROM tasks t CROSS JOIN LATERAL generate_series(0, t.next_seq - 1) AS s
WHERE t.tenant = 'bench' AND t.owner = 'big' AND t.id IN ('hist-5', 'hist-long');

ANALYZE tasks;
ANALYZE messages;
ANALYZE artifacts;
