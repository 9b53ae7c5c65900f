import path from 'node:path';
import type { SchemaFolders } from './schema-files';

/**
 * The platform's own tables (the evidence signing keys of src/platform/signing): what no feature owns. The
 * composition root passes this to migrate() beside the features' folders.
 */
export const PLATFORM_SCHEMA: SchemaFolders = { migrations: path.join(__dirname, 'migrations') };
