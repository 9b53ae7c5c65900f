import { jsonBody, jsonContent, ok } from '../../platform/openapi/json-content';
import type { Paths, ResponseObject } from '../../platform/openapi/json-schema';
import type { OperationContext } from '../../platform/openapi/operation-context';
import { only } from '../../platform/openapi/security';
import { historyEntryBodySchema } from '../history-entry-schema';
import { historyEntryRecordedResponse, historyWebhookErrorBody } from '../history-webhook-route';
import { HISTORY_EXAMPLES } from './examples';

const TAG = 'Webhooks';

/** The activity producer's deliveries (spec 4.5), answered in the webhook's own error shape. */
export function activityWebhookOperations({ components }: OperationContext): Paths {
  const activityError = components.response('ActivityWebhookError', historyWebhookErrorBody, {
    description:
      "The activity webhook's own error shape (spec 4.5): `{error}`, with the field at fault when there is one",
  });
  const activityErrorResponse = (description: string, example: unknown): ResponseObject => ({
    description,
    content: jsonContent(activityError, example),
  });
  return {
    '/api/webhook/activity': {
      post: {
        operationId: 'recordActivity',
        tags: [TAG],
        summary: 'Record an activity (spec 4.5)',
        description:
          'From another service of the platform: one history row per (userId, requestId); ' +
          "a repeat answers 201 with the first row's id. Validated in order: activityType, userId, " +
          'the fields the type requires (kyt: blockchain + transactionHash, kya: blockchain + address, kye: ' +
          'entityId), then every format. A record for a user not known yet is kept and attached when the user ' +
          'appears. The body is read as JSON whatever its Content-Type, up to 1 MB.',
        requestBody: jsonBody(
          components.request('ActivityRecordRequest', historyEntryBodySchema),
          HISTORY_EXAMPLES.activityWebhookRequest,
        ),
        responses: {
          201: ok(
            'Recorded (or recorded before under this requestId)',
            components.response('ActivityRecorded', historyEntryRecordedResponse),
            HISTORY_EXAMPLES.activityRecorded,
          ),
          400: activityErrorResponse(
            'A field is missing or invalid; `field` names it (e.g. `Invalid activityType. Must be one of: kyt, ' +
              'kya, kye`, `userId is required`)',
            HISTORY_EXAMPLES.activityWebhookInvalid,
          ),
          401: activityErrorResponse(
            'Missing or wrong X-Activity-Webhook-Secret (always, when ACTIVITY_WEBHOOK_SECRET is unset)',
            { error: 'Unauthorized' },
          ),
          413: activityErrorResponse('Over 1 MB', { error: 'Request body too large (limit 1 MB)' }),
          500: activityErrorResponse('Postgres failed: nothing was stored, retry', {
            error: 'Failed to record activity',
          }),
        },
        security: only('activityWebhookSecret'),
      },
    },
  };
}
