-- ukasan's reports in PostgreSQL: one row per JSON report line (schema 1,
-- docs/report.schema.json), as rsyslog's ompgsql inserts it
-- (deploy/rsyslog/ukasan-pgsql.conf). The report stays whole in doc; the
-- index on its signature serves the grouping query (bugs.sql).
CREATE TABLE IF NOT EXISTS ukasan_reports (
    id bigserial PRIMARY KEY,
    received timestamptz NOT NULL DEFAULT now(),
    host text,        -- the machine (syslog HOSTNAME)
    program text,     -- the task name (syslog APP-NAME)
    pid integer,      -- syslog PROCID
    doc jsonb NOT NULL
);
CREATE INDEX IF NOT EXISTS ukasan_reports_signature ON ukasan_reports ((doc->>'signature'));
CREATE INDEX IF NOT EXISTS ukasan_reports_received ON ukasan_reports (received);
