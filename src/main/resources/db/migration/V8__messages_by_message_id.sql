-- A message of a task by its id, as an index seek rather than a scan of the task's transcript:
-- ListTaskMessages starting at a message id (history-paging extension), and the write path and
-- the mirror, which both look a message id up before appending (a retry or a copy adds nothing).
-- Not unique: ids are de-duplicated by those writers, and a constraint added to a table that has
-- grown for months must not be able to fail the deployment that adds it.
CREATE INDEX messages_by_message_id_idx ON messages (task_pk, message_id);
