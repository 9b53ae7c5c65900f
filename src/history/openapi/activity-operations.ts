import { accountSecurity } from '../../identity';
import { ref } from '../../platform/openapi/error-shapes';
import { ok } from '../../platform/openapi/json-content';
import { pathParameter, queryParameters, type Paths } from '../../platform/openapi/json-schema';
import type { OperationContext } from '../../platform/openapi/operation-context';
import { historyEntryDetailResponse, historyListQuery, historyListResponse } from '../history-routes';
import { historyEntryDetailSchema, historyEntrySummarySchema } from '../history-views';
import { HISTORY_EXAMPLES } from './examples';

const TAG = 'Activity';

/** The account's own activity history. */
export function activityOperations({ components }: OperationContext): Paths {
  components.response('ActivityItem', historyEntrySummarySchema, {
    description: 'A history row as listed (also the `activity_recorded` socket event)',
  });
  components.response('ActivityDetail', historyEntryDetailSchema);
  return {
    '/api/v1/activity': {
      get: {
        operationId: 'listActivity',
        tags: [TAG],
        summary: 'Own activity history, newest first',
        description:
          'Screening jobs, activity-webhook records and paid reports. `from` is inclusive, ' +
          '`to` exclusive (ISO 8601 dates or date-times in years 0001 to 9999, UTC unless an offset is given; ' +
          'anything else is 400); `q` searches address, ' +
          'hash, entity name and id.',
        parameters: queryParameters(historyListQuery),
        responses: {
          200: ok(
            'A page of the history',
            components.response('ActivityList', historyListResponse),
            HISTORY_EXAMPLES.activityList,
          ),
          400: ref('InvalidParameter'),
          401: ref('AuthenticationRequired'),
        },
        security: accountSecurity('read'),
      },
    },
    '/api/v1/activity/{id}': {
      get: {
        operationId: 'getActivity',
        tags: [TAG],
        summary: 'One own history record with its payloads',
        parameters: [pathParameter('id', 'The record id (anything else is 404)', { type: 'string', format: 'uuid' })],
        responses: {
          200: ok(
            'The record',
            components.response('ActivityRecord', historyEntryDetailResponse),
            HISTORY_EXAMPLES.activityDetail,
          ),
          401: ref('AuthenticationRequired'),
          404: ref('NotFound'),
        },
        security: accountSecurity('read'),
      },
    },
  };
}
