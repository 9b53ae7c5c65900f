// renamed: alias until workflows/activities move (the composition root and OpenAPI still import this path)
export {
  createHistoryWebhookRouter as createActivityWebhookRouter,
  type HistoryWebhookDeps as ActivityWebhookDeps,
  historyEntryRecordedResponse as activityRecordedResponse,
  historyWebhookErrorBody as activityWebhookErrorBody,
} from './history-webhook-route';
