// renamed: alias until workflows/activities move (the composition root and OpenAPI still import this path)
export { jobRequestSchema as screeningRequestSchema } from './job-request';
