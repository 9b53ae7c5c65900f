-- Reference lists shipped in data/risk (see data/risk/SOURCES.md), loaded with COPY when their checksum changes.
-- Columns mirror the CSV headers so a refreshed file loads without code changes.
CREATE TABLE reference_datasets (
  name        text PRIMARY KEY,
  sha256      text NOT NULL,
  row_count   integer NOT NULL,
  loaded_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE ref_sanctions (
  chain text NOT NULL, asset text, address text NOT NULL, sdn_uid text, sdn_name text, sdn_type text,
  programs text, designated text, status text NOT NULL, first_listed text, source text
);
CREATE INDEX ref_sanctions_address_idx ON ref_sanctions (address);

CREATE TABLE ref_stablecoin_blacklist (
  chain text NOT NULL, token text NOT NULL, address text NOT NULL, status text NOT NULL,
  first_blacklisted_at text, last_event text, last_event_at text, last_event_tx text, destroyed_usdt text, source text
);
CREATE INDEX ref_stablecoin_blacklist_address_idx ON ref_stablecoin_blacklist (address);

CREATE TABLE ref_address_labels (
  chain text NOT NULL, address text NOT NULL, name text, category text NOT NULL, risk text, categories text,
  tags text, source text NOT NULL, source_date text, confidence text
);
CREATE INDEX ref_address_labels_address_idx ON ref_address_labels (address);

CREATE TABLE ref_entities (
  entity_id text PRIMARY KEY, name text NOT NULL, aliases text, entity_type text, status text, risk text,
  country text, website text, regulator text, licence_id text, services text, sources text, notes text
);

CREATE TABLE ref_mica_casps (
  lei text, legal_name text, commercial_name text, home_member_state text, competent_authority text, website text,
  authorisation_date text, authorisation_end_date text, service_codes text, passport_countries text, address text,
  last_update text
);

CREATE TABLE ref_mica_ncasp_warnings (
  name text, legal_name text, lei text, home_member_state text, competent_authority text, websites text,
  infringement text, reason text, decision_date text, last_update text
);
