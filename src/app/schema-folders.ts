import { PLATFORM_SCHEMA } from '../platform/db/platform-schema';
import type { SchemaFolders } from '../platform/db/schema-files';
import { FEATURES } from './features';

/**
 * Every folder of SQL the service is made of: the platform's own, then each feature's as its module.ts declares it.
 * The order here does not matter: migrate() applies the files of all of them in one global order by name.
 */
export const SCHEMA_FOLDERS: readonly SchemaFolders[] = [
  PLATFORM_SCHEMA,
  ...FEATURES.flatMap((feature) => (feature.schema ? [feature.schema] : [])),
];
