// renamed: alias until workflows/activities move (the composition root and OpenAPI still import this path)
export { historyEntryBodySchema as activityRecordBodySchema } from './history-entry-schema';
