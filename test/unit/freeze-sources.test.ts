import type { Pool } from 'pg';
import { type FreezeSource, syncFreezes } from '../../src/lists/freezes';

/** The activity names only chains; what it reads is the worker's. Both refusals come before any query or request. */
const noPool = {} as Pool;

test.each(['solana', 'bitcoin', 'Ethereum', '', 42])(
  'when the activity is asked for %p, which is no freeze source, then it refuses with FREEZE_SOURCE_UNKNOWN',
  async (source) => {
    await expect(
      syncFreezes({ pool: noPool, settings: { evm: {}, tron: null } }, source as FreezeSource),
    ).rejects.toMatchObject({ code: 'FREEZE_SOURCE_UNKNOWN' });
  },
);

test('when the worker reads no contract on a known EVM network, then the chain is unavailable here', async () => {
  await expect(syncFreezes({ pool: noPool, settings: { evm: {}, tron: null } }, 'arbitrum')).rejects.toMatchObject({
    code: 'CHAIN_UNAVAILABLE',
    retryable: true,
    message: expect.stringContaining('ARBITRUM_RPC_URL'),
  });
});
