-- Chain data cache. Final transactions never change, so they are kept for good; an address's
-- transfers are refreshed incrementally (new page merged into what is known) after a TTL.
CREATE TABLE chain_transactions (
  chain       text NOT NULL,
  hash        text NOT NULL,
  body        jsonb NOT NULL,
  fetched_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain, hash)
);

CREATE TABLE chain_address_transfers (
  chain         text NOT NULL,
  address       text NOT NULL,
  transfers     jsonb NOT NULL,
  truncated     boolean NOT NULL,
  refreshed_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain, address)
);
