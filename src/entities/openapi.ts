import type { FeatureOpenApi } from '../platform/features/feature-openapi';
import { accountSecurity } from '../identity';
import { ref } from '../platform/openapi/error-shapes';
import { ok } from '../platform/openapi/json-content';
import { pathParameter, type Paths } from '../platform/openapi/json-schema';
import type { OperationContext } from '../platform/openapi/operation-context';
import { clusterResponse } from './clusters-views';

const TAG = 'Clusters';

const EXAMPLE_CLUSTER = {
  success: true,
  data: {
    chain: 'bitcoin',
    address: 'bc1qa5wkgaew2dkv56kfvj49j0av5nml45x9ek9hz6',
    cluster_id: '4182',
    size: 3,
    partial: false,
    members: [
      'bc1qa5wkgaew2dkv56kfvj49j0av5nml45x9ek9hz6',
      'bc1qjl8uwezzlech723lpnyuza0h2cdkvxvh54v3dn',
      'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
    ],
    labels: [
      {
        address: 'bc1qjl8uwezzlech723lpnyuza0h2cdkvxvh54v3dn',
        name: 'Banned after case 1432',
        category: 'ransomware',
        source: 'custom',
        confidence: 100,
      },
    ],
    merges: [
      {
        a: 'bc1qa5wkgaew2dkv56kfvj49j0av5nml45x9ek9hz6',
        b: 'bc1qjl8uwezzlech723lpnyuza0h2cdkvxvh54v3dn',
        heuristic: 'common_input',
        txid: '9f2b1c0e8d7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c',
        merged_at: '2026-11-27T10:00:00.000Z',
      },
    ],
  },
};

function clustersOperations({ components }: OperationContext): Paths {
  return {
    '/api/v1/clusters/{chain}/{address}': {
      get: {
        operationId: 'getCluster',
        tags: [TAG],
        summary: 'The wallet cluster (entity) an address belongs to: size, labels and the merges that built it',
        description:
          'Clusters are grown by screenings: common-input ownership on the UTXO chains (bitcoin, litecoin, ' +
          'bitcoin-cash, dogecoin; CoinJoins never merged) and the ' +
          'deposit-address heuristic on EVM chains, each merge kept with its heuristic and transaction. This route ' +
          'reads what is stored and spends no chain call: an address no screening has read is answered as a ' +
          'cluster of one with `partial: true`. Labels are those of the reference lists and the caller’s own ' +
          '(never another account’s), with their source confidence on the TagPack scale.',
        parameters: [
          pathParameter('chain', 'A supported chain', { type: 'string' }),
          pathParameter('address', 'An address of that chain (normalised as a screening request’s)', {
            type: 'string',
            maxLength: 128,
          }),
          {
            name: 'limit',
            in: 'query' as const,
            required: false,
            description: 'Members, labels and merges shown (each), default 100',
            schema: { type: 'integer', minimum: 1, maximum: 1000 },
          },
        ],
        responses: {
          200: ok('The cluster', components.response('Cluster', clusterResponse), EXAMPLE_CLUSTER),
          400: ref('InvalidParameter'),
          401: ref('AuthenticationRequired'),
        },
        security: accountSecurity('read'),
      },
    },
  };
}

/** The wallet clusters' operations for the OpenAPI document (src/platform/features/feature-openapi.ts). */
export const entitiesOpenApi: FeatureOpenApi = {
  operations: [clustersOperations],
  tags: [
    { name: TAG, description: 'Wallet clusters: the addresses one entity controls, with the evidence of each link' },
  ],
};
