/** Input and result of the identity workflow. Types only: the workflow bundle stays pure. */
export type { ClerkEventInput, ClerkEventResult } from './apply-clerk-event';
export type { EventResult } from '../platform/webhooks/event-result';
