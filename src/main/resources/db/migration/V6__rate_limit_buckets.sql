-- Rate-limit buckets shared by all replicas (a2a.rate-limit.shared=true; docs/operations.md, "Rate limits").
-- One row per caller and request class, keyed by the caller's scope first like every table that
-- holds a caller's data. A replica leases a few tokens at a time from its row (row lock, one short
-- transaction) and spends them in memory, so most requests never touch this table.
CREATE TABLE rate_limit_buckets (
    tenant        text             NOT NULL,
    owner         text             NOT NULL,
    request_class text             NOT NULL,
    -- Tokens left at updated_at; the refill since then is computed by the replica that leases next.
    tokens        double precision NOT NULL,
    updated_at    timestamptz      NOT NULL,
    PRIMARY KEY (tenant, owner, request_class)
);

-- Rows idle long enough to be full again say nothing an absent row does not: the sweep finds them by age.
CREATE INDEX rate_limit_buckets_updated_at ON rate_limit_buckets (updated_at);
