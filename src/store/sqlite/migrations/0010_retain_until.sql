-- Sticky minimum retention (SPEC §5.4): each record keeps the retain_until it earned when it was
-- written (write time + the FINRA/HIPAA minimum of the policy then in force; NULL = none earned), and
-- no later policy change lowers it. Rows written before this migration earned none: only the policy in
-- force protects them, as before.
ALTER TABLE memories ADD COLUMN retain_until INTEGER;
ALTER TABLE memory_versions ADD COLUMN retain_until INTEGER;
ALTER TABLE conversations ADD COLUMN retain_until INTEGER;
ALTER TABLE immutable_versions ADD COLUMN retain_until INTEGER;
ALTER TABLE mutable_entries ADD COLUMN retain_until INTEGER;
