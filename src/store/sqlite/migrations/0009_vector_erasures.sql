-- Vectors of memories deleted in bulk wait here until store/sqlite/vector-erasure.ts erases them from every
-- model's vec0 table, right after the deleting transaction; a restart resumes what a crash left.
CREATE TABLE vector_erasures (
  memory_rowid INTEGER PRIMARY KEY
) STRICT;
