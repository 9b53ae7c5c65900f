import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { creditsForSale, type PayPalPlanPrice } from '../../src/billing/paypal/sale-credits';
import { CREDITS_PER_FURTHER_HOP, MINIMUM_CHARGE, RESCORE_PRICE } from '../../src/screening/pricing';
import { REPORT_PRICE, REPORT_PRICE_UNITS, X402_NETWORK } from '../../src/x402/constants';

/**
 * The prices the docs state, held to the figures the server charges with: a price change fails here until the docs
 * follow. Each statement is found by its wording with the figure captured, so a statement reworded out of its
 * pattern fails as well (update the pattern with the wording) instead of quietly no longer being checked.
 */

const ROOT = path.join(__dirname, '../..');
/** A doc's text with every run of white space made one space: a statement may wrap anywhere. */
const readDoc = (file: string) => readFileSync(path.join(ROOT, file), 'utf8').replace(/\s+/g, ' ');

interface PriceStatement {
  doc: string;
  says: string;
  /** Finds the statement; its first group is the figure. */
  pattern: RegExp;
  price: string | number;
}

const PRICE_STATEMENTS: PriceStatement[] = [
  {
    doc: 'docs/credits.md',
    says: 'what a completed job costs at least',
    pattern: /costs \*\*(\d+) credits?\*\*/g,
    price: MINIMUM_CHARGE,
  },
  {
    doc: 'docs/credits.md',
    says: 'what each further hop adds',
    pattern: /\*\*plus (\d+) credits? per further hop\*\*/g,
    price: CREDITS_PER_FURTHER_HOP,
  },
  {
    doc: 'docs/batches.md',
    says: 'what a batch item costs at least',
    pattern: /the same single job costs: (\d+) credits?/g,
    price: MINIMUM_CHARGE,
  },
  {
    doc: 'docs/batches.md',
    says: 'what each further hop adds to an item',
    pattern: /the same single job costs: \d+ credits? \([^)]*\) plus (\d+) per exposure hop/g,
    price: CREDITS_PER_FURTHER_HOP,
  },
  {
    doc: 'docs/batches.md',
    says: 'the least an item holds',
    pattern: /holds between (\d+) credits? and the most it can cost/g,
    price: MINIMUM_CHARGE,
  },
  {
    doc: 'docs/lists-and-monitoring.md',
    says: 'what a re-screen costs at least',
    pattern: /job costs \((\d+) credits? plus \d+ per further hop/g,
    price: MINIMUM_CHARGE,
  },
  {
    doc: 'docs/lists-and-monitoring.md',
    says: 'what each further hop adds to a re-screen',
    pattern: /job costs \(\d+ credits? plus (\d+) per further hop/g,
    price: CREDITS_PER_FURTHER_HOP,
  },
  {
    doc: 'docs/lists-and-monitoring.md',
    says: 'the minimum charge a paused monitor waits for',
    pattern: /minimum charge \((\d+) credits?\)/g,
    price: MINIMUM_CHARGE,
  },
  {
    doc: 'docs/policies.md',
    says: 'what a rescore costs',
    pattern: /again under one costs (\d+) credits?/g,
    price: RESCORE_PRICE,
  },
  {
    doc: 'docs/policies.md',
    says: 'what a rescore costs (RESCORE_PRICE)',
    pattern: /\*\*(\d+) credits?\*\* \(`RESCORE_PRICE`/g,
    price: RESCORE_PRICE,
  },
  {
    doc: 'README.md',
    says: 'what a rescore costs',
    pattern: /\*\*(\d+) credits?\*\*, once per job and policy version/g,
    price: RESCORE_PRICE,
  },
  {
    doc: 'docs/api.md',
    says: 'what a rescore costs',
    pattern: /(\d+) credits?, once per job and policy version/g,
    price: RESCORE_PRICE,
  },
  {
    doc: 'docs/api.md',
    says: 'what an x402 report costs',
    pattern: /pay-per-use, no account: (\$[\d.]+) in USDC on Base/g,
    price: REPORT_PRICE,
  },
  {
    doc: 'docs/api.md',
    says: 'the network an x402 report is paid on',
    pattern: /in USDC on Base \(`([^`]+)`\)/g,
    price: X402_NETWORK,
  },
  {
    doc: 'docs/api.md',
    says: "what an x402 report costs in USDC base units (the challenge's amount)",
    pattern: /`amount` (\d+), `asset`/g,
    price: REPORT_PRICE_UNITS,
  },
];

describe('the prices the docs state', () => {
  test.each(PRICE_STATEMENTS.map((s) => [s.doc, s.says, s] as const))(
    'when %s states %s, then it states the price the server charges',
    (_doc, _says, statement) => {
      // Arrange
      const text = readDoc(statement.doc);

      // Act
      const stated = [...text.matchAll(statement.pattern)].map((match) => match[1]);

      // Assert
      expect(stated.length).toBeGreaterThan(0);
      for (const figure of stated) expect(figure).toBe(String(statement.price));
    },
  );

  test('when the x402 price is read in dollars and in USDC base units (6 decimals), then both say the same', () => {
    // Arrange / Act
    const units = Math.round(Number(REPORT_PRICE.replace(/^\$/, '')) * 1_000_000);

    // Assert
    expect(String(units)).toBe(REPORT_PRICE_UNITS);
  });
});

const BILLING_MIGRATIONS = path.join(ROOT, 'src/billing/migrations');
const SEED = '006_billing.sql';

/**
 * The credit packages and their prices are data, not constants: rows src/billing/migrations/006_billing.sql seeds
 * (GET /api/v1/credits/packages serves them). These are the PayPal ones.
 */
function seededPayPalPrices(): PayPalPlanPrice[] {
  const sql = readFileSync(path.join(BILLING_MIGRATIONS, SEED), 'utf8');
  const section = (table: string) =>
    sql.slice(sql.indexOf(`INSERT INTO ${table}`), sql.indexOf(';', sql.indexOf(`INSERT INTO ${table}`)));
  const packages = new Map(
    [...section('credit_packages').matchAll(/\('([^']+)', '([^']+)', (\d+),/g)].map(([, id, name, credits]) => [
      id as string,
      { name: name as string, credits: Number(credits) },
    ]),
  );
  return [...section('package_prices').matchAll(/\('([^']+)', 'paypal', '([A-Z]{3})', (\d+),/g)].map(
    ([, packageId, currency, cents]) => {
      const pkg = packages.get(packageId as string);
      if (!pkg) throw new Error(`a PayPal price of the unknown package ${packageId}`);
      return {
        packageId: packageId as string,
        packageName: pkg.name,
        credits: pkg.credits,
        currency: currency as string,
        amountCents: Number(cents),
      };
    },
  );
}

describe("the package prices docs/credits.md's credit rules state", () => {
  const prices = seededPayPalPrices();
  const plan = (packageId: string) => prices.find((p) => p.packageId === packageId);
  const dollars = (cents: number) => (cents / 100).toFixed(2);
  const centsOf = (amount: string) => Math.round(Number(amount) * 100);
  const text = readDoc('docs/credits.md');

  test('when the later billing migrations are read, then none changes the seeded packages or prices', () => {
    // Arrange: were one to, the seed alone would no longer be the prices (this test would read the wrong source)
    const later = readdirSync(BILLING_MIGRATIONS).filter((file) => file.endsWith('.sql') && file !== SEED);

    // Act
    const changing = later.filter((file) =>
      /(INSERT INTO|UPDATE|DELETE FROM) (credit_packages|package_prices)\b/i.test(
        readFileSync(path.join(BILLING_MIGRATIONS, file), 'utf8'),
      ),
    );

    // Assert
    expect(later.length).toBeGreaterThan(0);
    expect(changing).toEqual([]);
  });

  test('when the seeded PayPal prices are read, then Basic and Pro are priced in USD', () => {
    // Arrange / Act / Assert
    expect([plan('basic')?.currency, plan('pro')?.currency]).toEqual(['USD', 'USD']);
  });

  test(
    "when rule 1's prorated example is read, " +
      "then Pro's credits and price are the seeded ones and the share is what a sale buys",
    () => {
      // Arrange
      const match = text.match(/\(([\d.]+) USD → (\d+) at Pro's (\d+) for ([\d.]+)\)/);

      // Act
      const [, amount, credits, proCredits, proPrice] = match ?? [];

      // Assert
      expect(match).not.toBeNull();
      expect([Number(proCredits), proPrice]).toEqual([plan('pro')?.credits, dollars(plan('pro')?.amountCents ?? 0)]);
      expect(creditsForSale(centsOf(amount as string), 'USD', prices, null)?.credits).toBe(Number(credits));
    },
  );

  test("when rule 2's example is read, then Basic's credits and both prices are the seeded ones", () => {
    // Arrange
    const match = text.match(/keeps the (\d+) credits of the one ([\d.]+) payment; the next sale at ([\d.]+) brings/);

    // Act
    const [, basicCredits, basicPrice, proPrice] = match ?? [];

    // Assert
    expect(match).not.toBeNull();
    expect([Number(basicCredits), basicPrice, proPrice]).toEqual([
      plan('basic')?.credits,
      dollars(plan('basic')?.amountCents ?? 0),
      dollars(plan('pro')?.amountCents ?? 0),
    ]);
  });

  test(
    "when rule 3's trial and setup-fee examples are read, " + 'then each buys the share a sale of that amount buys',
    () => {
      // Arrange
      const match = text.match(/buys its share \(([\d.]+) USD → (\d+), ([\d.]+) USD → (\d+)\)/);

      // Act
      const [, firstAmount, firstCredits, secondAmount, secondCredits] = match ?? [];

      // Assert
      expect(match).not.toBeNull();
      expect([
        creditsForSale(centsOf(firstAmount as string), 'USD', prices, null)?.credits,
        creditsForSale(centsOf(secondAmount as string), 'USD', prices, null)?.credits,
      ]).toEqual([Number(firstCredits), Number(secondCredits)]);
    },
  );
});
