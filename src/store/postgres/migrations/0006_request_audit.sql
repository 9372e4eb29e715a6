-- Every authenticated request is audited (SPEC §8), as in the SQLite store's migration 16: the
-- principal, the route template and the duration. Older rows (governance calls) keep NULL.
ALTER TABLE audit_log ADD COLUMN principal text COLLATE "C";
ALTER TABLE audit_log ADD COLUMN route text COLLATE "C";
ALTER TABLE audit_log ADD COLUMN duration_ms double precision;
CREATE INDEX audit_log_by_org_id ON audit_log (organization_id, id);
