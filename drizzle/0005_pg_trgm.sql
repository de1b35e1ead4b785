-- Trigram matching for the typo-tolerant name search of species, brands and gear (GIN indexes
-- with gin_trgm_ops, word_similarity). pg_trgm ships with PostgreSQL (also the embedded server)
-- and is a trusted extension: the database owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
