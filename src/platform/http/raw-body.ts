import express, { type Request } from 'express';
import { flatError, type HttpError } from './errors';

/**
 * Signatures cover the exact bytes sent, so webhook routes read the raw body whatever its content
 * type (a JSON parser would re-serialize it and break verification).
 */
export const rawBody = (limit: string) => express.raw({ type: () => true, limit });

export const bodyBytes = (req: Request): Buffer => (Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));

export const invalidSignature = (reason: string): HttpError =>
  flatError(401, 'Unauthorized', 'INVALID_SIGNATURE', { reason });

export const notConfigured = (what: string, variables: string): HttpError =>
  flatError(503, `${what} webhooks are not configured on this deployment (${variables})`, 'WEBHOOK_NOT_CONFIGURED');
