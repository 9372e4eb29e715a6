-- Every authenticated request is audited (SPEC §8): who asked (the key id, "shared:<n>" or the token's
-- subject), which route template answered, and how long it took. Older rows (governance calls) keep NULL.
ALTER TABLE audit_log ADD COLUMN principal TEXT;
ALTER TABLE audit_log ADD COLUMN route TEXT;
ALTER TABLE audit_log ADD COLUMN duration_ms REAL;
CREATE INDEX audit_log_by_org_id ON audit_log (organization_id, id);
