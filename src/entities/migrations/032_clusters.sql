-- Wallet clustering (src/entities, issue 29 item 2): the addresses one entity controls, as a union-find kept in
-- Postgres that grows as crawls read transactions (no whole-chain rebuild). Only the strong heuristics merge:
-- common-input ownership on bitcoin (CoinJoins excluded) and the deposit-address heuristic on account chains;
-- change-output guesses never do. Writers serialise per chain on a transaction-scoped advisory lock (cluster-store.ts).

-- One row per cluster ever made. A cluster that lost a merge (the smaller one: union by size) is kept and points
-- at the cluster that absorbed it, so an id quoted in an earlier answer still resolves. The store keeps every
-- pointer one hop from a live cluster. `size` of a live cluster is its cluster_addresses count; a merged one
-- keeps the size it had when it was absorbed.
CREATE TABLE clusters (
  id          bigserial PRIMARY KEY,
  chain       text NOT NULL,
  size        integer NOT NULL CHECK (size >= 1),
  merged_into bigint REFERENCES clusters (id),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  CHECK (merged_into <> id)
);

-- A merge moves the pointers of clusters absorbed earlier by the loser on to the survivor.
CREATE INDEX clusters_merged_into ON clusters (merged_into) WHERE merged_into IS NOT NULL;

-- Each address in a stored cluster, always labelled with the live cluster's id (a merge relabels the smaller side).
-- expanded_at: this address's own history was read for links; history_truncated: that read saw only part of it.
-- A cluster with a member never read, or read in part, is `partial`: known only as far as its reads went.
CREATE TABLE cluster_addresses (
  chain             text NOT NULL,
  address           text NOT NULL,
  cluster_id        bigint NOT NULL REFERENCES clusters (id),
  expanded_at       timestamptz,
  history_truncated boolean NOT NULL DEFAULT false,
  PRIMARY KEY (chain, address)
);

-- Members of a cluster (listing, relabelling at a merge), in address order.
CREATE INDEX cluster_addresses_cluster ON cluster_addresses (cluster_id, address);
-- What makes a cluster partial and what an expansion reads next, without scanning a large cluster's members.
CREATE INDEX cluster_addresses_incomplete ON cluster_addresses (cluster_id, address)
  WHERE expanded_at IS NULL OR history_truncated;

-- The evidence: only the links that joined two different clusters (the spanning forest of the union-find), each
-- with its heuristic and the transaction that showed it. Within a cluster the path between two members is then
-- unique, and it is the answer to "why are these two in one cluster". A link between members already together
-- proves nothing more and is not kept.
CREATE TABLE cluster_links (
  id         bigserial PRIMARY KEY,
  chain      text NOT NULL,
  address_a  text NOT NULL,
  address_b  text NOT NULL,
  heuristic  text NOT NULL CHECK (heuristic IN ('common_input', 'deposit_address')),
  txid       text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (address_a <> address_b),
  UNIQUE (chain, address_a, address_b),
  FOREIGN KEY (chain, address_a) REFERENCES cluster_addresses (chain, address),
  FOREIGN KEY (chain, address_b) REFERENCES cluster_addresses (chain, address)
);

-- The path search walks links from either end (the unique constraint serves address_a).
CREATE INDEX cluster_links_b ON cluster_links (chain, address_b);
