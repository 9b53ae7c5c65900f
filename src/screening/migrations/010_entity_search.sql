-- KYE: fuzzy entity lookup by name and alias. pg_trgm ships with PostgreSQL (contrib).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX ref_entities_name_trgm_idx ON ref_entities USING gin (lower(name) gin_trgm_ops);
CREATE INDEX ref_entities_aliases_trgm_idx ON ref_entities USING gin (lower(coalesce(aliases, '')) gin_trgm_ops);
CREATE INDEX ref_sanctions_uid_idx ON ref_sanctions (sdn_uid);
CREATE INDEX ref_address_labels_name_idx ON ref_address_labels (lower(name) text_pattern_ops);
