-- An x402 payment's claim is keyed on what identifies it on chain: the nonce that a contract marks used for a
-- signer on one network. For EIP-3009 (transferWithAuthorization) that contract is the token, for Permit2 it is
-- the Permit2 contract (src/x402/payment-identity.ts). The contract joins the key, so the same signer and nonce
-- under the two methods are two payments; `payer` holds the authorizer (EIP-3009) or the Permit2 owner.
ALTER TABLE x402_payments ADD COLUMN method text NOT NULL DEFAULT 'eip3009' CHECK (method IN ('eip3009', 'permit2'));
ALTER TABLE x402_payments ALTER COLUMN method DROP DEFAULT;
-- Every earlier claim was an EIP-3009 authorization on the token it paid in.
ALTER TABLE x402_payments ADD COLUMN contract text;
UPDATE x402_payments SET contract = lower(asset);
ALTER TABLE x402_payments ALTER COLUMN contract SET NOT NULL;
ALTER TABLE x402_payments DROP CONSTRAINT x402_payments_pkey;
ALTER TABLE x402_payments ADD PRIMARY KEY (network, contract, payer, nonce);
