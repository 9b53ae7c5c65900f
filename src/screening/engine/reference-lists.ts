// renamed: alias until workflows/activities move (the composition root and OpenAPI still import this path)
export { createReferenceData as createReferenceLists, type ReferenceData as ReferenceLists } from './reference-data';
