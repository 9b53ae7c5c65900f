-- The account's own lists (src/custom-labels, issue 29 item 4): addresses a compliance team has labelled itself, a
-- category of data/risk/risk_categories.json (a blocklist entry) or `allow` (cleared after review). They apply to
-- that account's screenings only, as hits of source `custom`. `address` is normalised as a screening request's is.
CREATE TABLE custom_labels (
  id         uuid PRIMARY KEY,
  user_id    uuid NOT NULL REFERENCES users (id),
  chain      text NOT NULL,
  address    text NOT NULL,
  category   text NOT NULL,
  name       text CHECK (char_length(name) <= 200),
  note       text CHECK (char_length(note) <= 2000),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, chain, address, category)
);

-- What a screening reads: the account's labels of the addresses it screens.
CREATE INDEX custom_labels_user_address ON custom_labels (user_id, chain, address);
