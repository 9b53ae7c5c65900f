-- Sanctions lists as versions (src/lists): each load of an issue is a version with its source, issue date,
-- sha256 and counts; entries keep the version that listed them and the one that delisted them, so
-- "was this address listed on date D" has an answer, and each version's diff is kept in list_changes.
CREATE TABLE list_versions (
  id            bigserial PRIMARY KEY,
  list          text NOT NULL CHECK (list IN ('ofac')),
  source        text NOT NULL,
  issue_date    date NOT NULL,
  sha256        text NOT NULL,
  entry_count   integer NOT NULL,
  added         integer NOT NULL,
  removed       integer NOT NULL,
  changed       integer NOT NULL,
  forced        boolean NOT NULL DEFAULT false,
  loaded_at     timestamptz NOT NULL DEFAULT now(),
  superseded_at timestamptz
);
-- One active version per list: the one nothing superseded.
CREATE UNIQUE INDEX list_versions_active_idx ON list_versions (list) WHERE superseded_at IS NULL;
CREATE INDEX list_versions_sha_idx ON list_versions (list, sha256);

CREATE TABLE sanction_entries (
  id               bigserial PRIMARY KEY,
  list             text NOT NULL,
  chain            text NOT NULL,
  address          text NOT NULL,
  asset            text,
  sdn_uid          text NOT NULL,
  sdn_name         text,
  sdn_type         text,
  programs         text[] NOT NULL DEFAULT '{}',
  designated       date,
  listed_version   bigint NOT NULL REFERENCES list_versions (id),
  listed_on        date NOT NULL,
  delisted_version bigint REFERENCES list_versions (id),
  delisted_on      date
);
CREATE INDEX sanction_entries_address_idx ON sanction_entries (address);
CREATE UNIQUE INDEX sanction_entries_current_idx ON sanction_entries (list, chain, address, sdn_uid)
  WHERE delisted_version IS NULL;

CREATE TABLE list_changes (
  version_id bigint NOT NULL REFERENCES list_versions (id),
  change     text NOT NULL CHECK (change IN ('added', 'removed', 'changed')),
  chain      text NOT NULL,
  address    text NOT NULL,
  sdn_uid    text NOT NULL,
  before     jsonb,
  after      jsonb
);
CREATE INDEX list_changes_version_idx ON list_changes (version_id);
CREATE INDEX list_changes_address_idx ON list_changes (address);

-- The shipped CSV was COPYed into ref_sanctions; the entries above replace it. The view keeps the old shape
-- for readers of the whole list (the entity directory), current and delisted rows alike.
DROP TABLE ref_sanctions;
DELETE FROM reference_datasets WHERE name = 'sanctions_ofac';
CREATE VIEW ref_sanctions AS
  SELECT chain, asset, address, sdn_uid, sdn_name, sdn_type, array_to_string(programs, ';') AS programs,
         to_char(designated, 'YYYY-MM-DD') AS designated,
         CASE WHEN delisted_version IS NULL THEN 'active' ELSE 'delisted' END AS status,
         to_char(listed_on, 'YYYY-MM-DD') AS first_listed, 'list_version:' || listed_version AS source
  FROM sanction_entries;
