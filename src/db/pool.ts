import { Pool, types } from 'pg';

// bigint columns (credit balances) come back as JS numbers: balances stay far below 2^53.
types.setTypeParser(types.builtins.INT8, (v) => Number(v));
types.setTypeParser(types.builtins.NUMERIC, (v) => Number(v));

export function createPool(connectionString: string, max: number): Pool {
  const pool = new Pool({ connectionString, max });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}
