import { z } from 'zod';

/**
 * Reads "true"/"false" (and 1/0) strictly: `Boolean("false")` is true, which is how safeguards get switched
 * off by accident.
 */
export const envFlag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** A TCP port (0 = any free port). */
export const envPort = z.coerce.number().int().min(0).max(65535);
