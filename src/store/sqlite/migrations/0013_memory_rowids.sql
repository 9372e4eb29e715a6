-- memories.rowid becomes AUTOINCREMENT: no deleted memory's rowid is ever given to a new one. SQLite
-- cannot alter a column into AUTOINCREMENT, so migrations/memory-rowids.ts rebuilds the table once,
-- from its own definition (columns added later included), keeping every rowid, index and trigger.
SELECT 1;
