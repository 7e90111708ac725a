-- Work ownership: a task whose agent runs holds a lease (the process running it, and until when).
-- The process renews it while the agent works and clears it when the run ends; when a process
-- dies, its leases expire and any replica marks those tasks FAILED, so no task stays WORKING.

ALTER TABLE tasks ADD COLUMN lease_owner text;
ALTER TABLE tasks ADD COLUMN lease_expires_at timestamptz;
ALTER TABLE tasks ADD CONSTRAINT tasks_lease_check CHECK ((lease_owner IS NULL) = (lease_expires_at IS NULL));

-- The sweep looks only at leased tasks: a small partial index, whatever the table's size.
CREATE INDEX tasks_lease_expiry_idx ON tasks (lease_expires_at) WHERE lease_owner IS NOT NULL;
