-- Cases (src/cases): the audit trail is append-only. An entry, once written, is what its hash and signature prove;
-- the database refuses to change or remove one, whoever asks (a verifier would notice, this stops it earlier).
CREATE OR REPLACE FUNCTION case_trail_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'case_trail is append-only: entry % of case % cannot be %', OLD.seq, OLD.case_id, lower(TG_OP);
END $$;

CREATE OR REPLACE TRIGGER case_trail_append_only BEFORE UPDATE OR DELETE ON case_trail
  FOR EACH ROW EXECUTE FUNCTION case_trail_append_only();
