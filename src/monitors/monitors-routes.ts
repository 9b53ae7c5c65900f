import type { Client } from '@temporalio/client';
import { Router } from 'express';
import { z } from 'zod';
import { currentUser, requireScope } from '../identity';
import { DIGITS, isUuid } from '../platform/http/common-patterns';
import { flatError, invalidParameter, notFound, parseOrThrow, structuredError } from '../platform/http/errors';
import { ChainAttr, UserIdAttr } from '../platform/temporal/search-attributes';
import type { RateLimitCheck } from '../platform/rate-limit/middleware';
import { policyReferenceField } from '../policies';
import {
  addressFormatHint,
  type BitcoinNetwork,
  type HoldDeps,
  normalizeAddress,
  type PolicyResolver,
  refuseUnlessQueued,
  SUPPORTED_CHAINS,
} from '../screening';
import { createMonitor, MonitorLimitReachedError } from './create-monitor';
import type { MonitorStore } from './monitors-store';
import { alertView, monitorView } from './monitors-views';
import { monitorWorkflowId } from './workflow-ids';
import { MONITOR_SIGNALS, type MonitorWorkflowInput } from './workflow-types';
import { PLATFORM_ERRORS } from '../platform/errors';

export interface MonitorsRouterDeps {
  monitors: MonitorStore;
  temporal: Client;
  taskQueue: string;
  /** Hours between scheduled re-screens when a monitor does not say (MONITOR_EVERY_HOURS_DEFAULT). */
  defaultEveryHours: number;
  /** The account's job-submit limit (JOB_SUBMIT_LIMIT_PER_MINUTE): creating and re-screening start paid jobs. */
  limitSubmits: RateLimitCheck;
  /** Checks at create that the account has the policy a monitor names (the policies feature). */
  policies: PolicyResolver;
  /** Holds the price of a new monitor's first job (screening's pricing over billing's ledger). */
  hold: Pick<HoldDeps, 'pool' | 'credits' | 'subscriptions' | 'capabilities'>;
  /** Monitors one account may keep (MAX_ACTIVE_MONITORS_PER_ACCOUNT). */
  maxActivePerAccount: number;
  /** BITCOIN_NETWORK: the bitcoin addresses a monitor may watch. */
  bitcoinNetwork: BitcoinNetwork;
}

export const createMonitorBody = z
  .object({
    chain: z.enum(SUPPORTED_CHAINS, { error: `one of ${SUPPORTED_CHAINS.join(', ')}` }),
    address: z.string({ error: 'an address' }).min(1, 'an address').max(128, 'at most 128 characters'),
    reference_id: z.string({ error: 'text' }).max(128, 'at most 128 characters').nullable().optional(),
    alert_level: z.enum(['LOW', 'MEDIUM', 'HIGH'], { error: 'one of LOW, MEDIUM, HIGH' }).default('MEDIUM'),
    every_hours: z
      .number({ error: 'an integer from 1 to 8760' })
      .int('an integer from 1 to 8760')
      .min(1, 'an integer from 1 to 8760')
      .max(8760, 'an integer from 1 to 8760')
      .optional(),
    policy_id: policyReferenceField
      .nullable()
      .optional()
      .meta({
        description:
          "The policy every re-screen is scored under, at its current version then ('standard': the shipped " +
          "model); absent or null: the account's default policy at each re-screen",
        examples: ['strict-gambling'],
      }),
  })
  .strict();

const paging = (value: unknown, fallback: number, max: number, name: string): number => {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !DIGITS.test(value) || Number(value) > max) {
    throw invalidParameter(name, `an integer from 0 to ${max}`);
  }
  return Number(value);
};

/** The monitor's workflow: started once (a repeated create finds it running), signalled by delete and rescreen. */
async function startMonitorWorkflow(deps: MonitorsRouterDeps, input: MonitorWorkflowInput): Promise<void> {
  await deps.temporal.workflow
    .start('monitorWorkflow', {
      workflowId: monitorWorkflowId(input.monitorId),
      taskQueue: deps.taskQueue,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
      typedSearchAttributes: [
        { key: UserIdAttr, value: input.userId },
        { key: ChainAttr, value: input.chain },
      ],
    })
    .catch((err: unknown) => {
      throw flatError(
        PLATFORM_ERRORS.SERVICE_UNAVAILABLE,
        `The monitor was stored but could not be started: ${(err as Error).message}`,
      );
    });
}

/** POST/GET/DELETE /api/v1/monitors, a monitor's alerts, and an on-demand re-screen. */
export function createMonitorsRouter(deps: MonitorsRouterDeps): Router {
  const router = Router();

  const ownMonitor = async (id: string, userId: string) => {
    if (!isUuid(id)) throw notFound('Monitor');
    const monitor = await deps.monitors.findForUser(id, userId);
    if (!monitor) throw notFound('Monitor');
    return monitor;
  };

  router.post('/monitors', requireScope('screening'), deps.limitSubmits, async (req, res) => {
    const body = parseOrThrow(createMonitorBody, req.body);
    const address = normalizeAddress(body.chain, body.address, deps.bitcoinNetwork);
    if (!address) throw invalidParameter('address', addressFormatHint(body.chain, deps.bitcoinNetwork));
    const user = currentUser(res);
    // A policy the account does not have is a 404 now, not a failed re-screen later.
    if (body.policy_id) await deps.policies.resolve(user.id, body.policy_id);
    const outcome = await createMonitor(
      { pool: deps.hold.pool, monitors: deps.monitors, hold: deps.hold, maxActive: deps.maxActivePerAccount },
      {
        userId: user.id,
        chain: body.chain,
        address,
        referenceId: body.reference_id ?? null,
        alertLevel: body.alert_level,
        everyHours: body.every_hours ?? deps.defaultEveryHours,
        policyId: body.policy_id ?? null,
      },
    ).catch((err: unknown) => {
      if (!(err instanceof MonitorLimitReachedError)) throw err;
      throw structuredError(err.entry, err.message, { limit: err.limit });
    });
    // Nothing stored, nothing started: the account cannot pay for the first job (402, as a refused submit).
    if (outcome.kind === 'insufficient_credits') {
      refuseUnlessQueued(outcome);
      return;
    }
    const { monitor } = outcome;
    const created = outcome.kind === 'created';
    await startMonitorWorkflow(deps, {
      monitorId: monitor.id,
      userId: user.id,
      chain: monitor.chain,
      everyHours: monitor.everyHours,
      // The held first job, until it has run (a repeated create may restart a workflow that ended).
      ...(monitor.firstRequestId && !monitor.lastScreenedAt ? { firstRequestId: monitor.firstRequestId } : {}),
    });
    res.status(created ? 201 : 200).json({ success: true, data: monitorView(monitor) });
  });

  router.get('/monitors', requireScope('read'), async (req, res) => {
    const limit = Math.max(1, paging(req.query.limit, 20, 100, 'limit'));
    const offset = paging(req.query.offset, 0, 1_000_000, 'offset');
    const { monitors, total } = await deps.monitors.listForUser(currentUser(res).id, limit, offset);
    res.json({ success: true, data: monitors.map(monitorView), pagination: { total, limit, offset } });
  });

  router.get('/monitors/:id', requireScope('read'), async (req, res) => {
    res.json({ success: true, data: monitorView(await ownMonitor(req.params.id, currentUser(res).id)) });
  });

  router.delete('/monitors/:id', requireScope('screening'), async (req, res) => {
    const monitor = await ownMonitor(req.params.id, currentUser(res).id);
    if (!(await deps.monitors.delete(monitor.id, monitor.userId))) throw notFound('Monitor');
    await deps.temporal.workflow
      .getHandle(monitorWorkflowId(monitor.id))
      .signal(MONITOR_SIGNALS.stop)
      // Already ended: nothing left to stop; the monitor is deleted either way.
      .catch(() => undefined);
    res.json({ success: true, data: { id: monitor.id, deleted: true } });
  });

  router.get('/monitors/:id/alerts', requireScope('read'), async (req, res) => {
    const monitor = await ownMonitor(req.params.id, currentUser(res).id);
    const limit = Math.max(1, paging(req.query.limit, 20, 100, 'limit'));
    const offset = paging(req.query.offset, 0, 1_000_000, 'offset');
    const { alerts, total } = await deps.monitors.alerts(monitor.id, limit, offset);
    res.json({ success: true, data: alerts.map(alertView), pagination: { total, limit, offset } });
  });

  router.post('/monitors/:id/rescreen', requireScope('screening'), deps.limitSubmits, async (req, res) => {
    const monitor = await ownMonitor(req.params.id, currentUser(res).id);
    // The request row is what makes the re-screen due (and paid for); the signal only wakes the workflow.
    await deps.monitors.requestRescreens([monitor.id], 'requested by the owner');
    await deps.temporal.workflow
      .getHandle(monitorWorkflowId(monitor.id))
      .signal(MONITOR_SIGNALS.rescreen, { reason: 'requested by the owner' })
      .catch((err: unknown) => {
        throw flatError(
          PLATFORM_ERRORS.SERVICE_UNAVAILABLE,
          `The monitor could not be reached: ${(err as Error).message}`,
        );
      });
    res.status(202).json({ success: true, data: { monitor_id: monitor.id, status: 'rescreen_requested' } });
  });

  return router;
}
