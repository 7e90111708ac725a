-- High-water marks of the mirror job: per configured source, the newest status timestamp
-- synced so far. The next sync lists the source from (high_water - skew).
CREATE TABLE mirror_marks (
    mirror     text        PRIMARY KEY,
    high_water timestamptz NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
