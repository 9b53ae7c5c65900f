import { defaultPayloadConverter } from '@temporalio/common';
import type { ActivityInterceptorsFactory, Headers } from '@temporalio/worker';
import { HTTP_REQUEST_ID_HEADER } from '../temporal/http-request-memo';
import type { Logger } from './logger';
import { withLogContext } from './log-context';

function httpRequestIdFrom(headers: Headers): string | undefined {
  const payload = headers[HTTP_REQUEST_ID_HEADER];
  if (!payload) return undefined;
  const value: unknown = defaultPayloadConverter.fromPayload(payload);
  return typeof value === 'string' ? value : undefined;
}

/**
 * Every activity runs inside a log context of its workflow (workflowId, workflowType, activity, attempt and,
 * when the workflow was started by an HTTP request, that request's httpRequestId, which the workflow
 * interceptor put in a header). So any line logged while the activity works, by the activity or by the domain
 * code under it through the injected logger, names the job and the request; the SDK's own activity lines get
 * httpRequestId through getLogAttributes. `log` writes one debug line per execution with its duration.
 */
export function activityLogContext(log?: Logger): ActivityInterceptorsFactory {
  return (ctx) => {
    let httpRequestId: string | undefined;
    return {
      inbound: {
        async execute(input, next) {
          httpRequestId = httpRequestIdFrom(input.headers);
          const { info } = ctx;
          const fields = {
            workflowId: info.workflowExecution?.workflowId,
            workflowType: info.workflowType,
            activity: info.activityType,
            attempt: info.attempt,
            ...(httpRequestId ? { httpRequestId } : {}),
          };
          return withLogContext(fields, async () => {
            const started = process.hrtime.bigint();
            const durationMs = () => Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
            try {
              const result = await next(input);
              log?.debug('activity completed', { durationMs: durationMs() });
              return result;
            } catch (err) {
              // The SDK logs the failure itself (WARN, with the error); this line only times it.
              log?.debug('activity failed', { durationMs: durationMs() });
              throw err;
            }
          });
        },
      },
      outbound: {
        getLogAttributes: (input, next) => next(httpRequestId ? { ...input, httpRequestId } : input),
      },
    };
  };
}
