// renamed: alias until workflows/activities move (the composition root and OpenAPI still import this path)
export { createEntityStore } from '../reference-data/entities-store';
