-- Payment and webhook providers are data that each feature declares (its module.ts), not a list the schema repeats:
-- the CHECK (provider IN (...)) of migrations 006, 015 and 022 made every new provider a migration. They go; a row's
-- provider is what the code that wrote it named. The names are the ones Postgres gave those column checks.
ALTER TABLE package_prices DROP CONSTRAINT package_prices_provider_check;
ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_provider_check;
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_provider_check;
ALTER TABLE credited_payments DROP CONSTRAINT credited_payments_provider_check;
ALTER TABLE payment_refunds DROP CONSTRAINT payment_refunds_provider_check;
ALTER TABLE payment_disputes DROP CONSTRAINT payment_disputes_provider_check;
-- Kept, because they state something other than the list of providers: package_prices_check (a price names a PayPal
-- plan exactly when its provider is paypal) and payfast_refund_records_provider_check (provider = 'payfast': that
-- table records PayFast refunds only, and the column exists for its foreign key to credited_payments).
