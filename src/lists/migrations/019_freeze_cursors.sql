-- Stablecoin freezes follow the chain (src/lists/freezes): the freeze events of USDT and USDC are read as they
-- happen and applied over the shipped snapshot in ref_stablecoin_blacklist.

-- How far each (chain, contract) has been read. Ethereum: last_block is the last block read, inclusive. TRON:
-- last_block_timestamp (ms) is the time up to which events were read (the next read starts there, inclusive),
-- last_block the newest block an event came from. dataset_sha256 is the shipped CSV the cursor's events were
-- applied over: a new CSV replaces the table whole, and a cursor written over another CSV starts again.
CREATE TABLE freeze_cursors (
  chain                text NOT NULL,
  contract             text NOT NULL,
  token                text NOT NULL,
  last_block           bigint,
  last_block_timestamp bigint,
  dataset_sha256       text,
  updated_at           timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain, contract)
);

-- Where the newest event applied to a row sits on its chain (Ethereum: block and log index; TRON: block and the
-- event's index in its transaction), so an event is applied only when it is newer: a re-read window, or an
-- event older than the stored one, changes nothing. Rows of the shipped CSV have none; their last_event_at
-- stands in for it.
ALTER TABLE ref_stablecoin_blacklist
  ADD COLUMN last_event_block bigint,
  ADD COLUMN last_event_index integer;

-- One row per (chain, token, address): the CSV has one, and the events are upserted by it.
CREATE UNIQUE INDEX ref_stablecoin_blacklist_key_idx ON ref_stablecoin_blacklist (chain, token, address);
