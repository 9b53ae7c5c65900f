import { withPorts } from '../../src/app/feature-ports';
import { featureActivities } from '../../src/app/feature-runtime';
import type { FeatureModule } from '../../src/platform/features/feature-module';
import type { FeatureRuntime } from '../../src/platform/features/feature-runtime';
import { perRuntime } from '../../src/platform/features/per-runtime';

/** A runtime without connections: ports and activities here are plain functions over it. */
const base = { config: {}, log: {}, taskQueue: 'q', overrides: {} } as unknown as Omit<FeatureRuntime, 'ports'>;

const featureModule = (name: string, fields: Partial<FeatureModule>): FeatureModule => ({ name, ...fields });

describe('ports between features', () => {
  test(
    'when one feature provides a port another reads when it runs, then the reader gets ' + 'the provider’s one',
    async () => {
      // Arrange: the consumer comes first in the list and reads the port only when called
      const consumer = featureModule('consumer', {
        provides: (runtime) => ({
          rescored: async (accountId: string) =>
            runtime.ports.accountHolds.releaseAll({} as never, accountId).then(() => undefined),
        }),
      });
      const released: string[] = [];
      const provider = featureModule('provider', {
        provides: () => ({
          accountHolds: {
            releaseAll: async (_client: unknown, userId: string) => {
              released.push(userId);
              return 1;
            },
          },
        }),
      });

      // Act
      const runtime = withPorts(base, [consumer, provider]);
      await runtime.ports.rescored('account-1', {} as never);

      // Assert
      expect(released).toEqual(['account-1']);
    },
  );

  test('when two features provide the same port, then building the runtime fails naming both', () => {
    const twice = (name: string) =>
      featureModule(name, { provides: () => ({ authenticate: (_req, _res, next) => next() }) });
    expect(() => withPorts(base, [twice('first'), twice('second')])).toThrow(
      'port authenticate of second is provided already by first',
    );
  });

  test('when two features register an activity of the same name, then the worker refuses to build', () => {
    const runtime = withPorts(base, []);
    const withSettle = (name: string) => featureModule(name, { activities: () => ({ settle: async () => undefined }) });
    expect(() => featureActivities(runtime, [withSettle('billing'), withSettle('fakepay')])).toThrow(
      'activity settle of fakepay is provided already by billing',
    );
  });

  test(
    'when a feature asks for its process-wide part twice over one runtime, then it is built once; another ' +
      'runtime gets its own',
    () => {
      let built = 0;
      const cacheOf = perRuntime(() => ({ id: ++built }));
      const one = withPorts(base, []);
      const other = withPorts(base, []);
      expect([cacheOf(one), cacheOf({ ...one }), cacheOf(other)].map((part) => part.id)).toEqual([1, 1, 2]);
    },
  );
});
