/**
 * Gives device items the keys of the device indexes (gsi3: devices of a floor, gsi4: devices of an
 * organization; keys only) in place, and with `--drop-old-keys` takes away their gsi1/gsi2 keys (the
 * indexes that copied every reading). Idempotent and safe beside live traffic (every write is
 * conditioned on the item read). The order of the steps: docs/deploy.md, "Device indexes".
 *
 *   AWS_REGION=... PLATFORM_TABLE=<PlatformTableName output> npx tsx infra/cdk/migrate-devices.ts [--drop-old-keys]
 */
import { parseArgs } from 'node:util';
import { migrateDeviceIndexes } from '@argentum/functions/stores/devices';

const { values } = parseArgs({ options: { 'drop-old-keys': { type: 'boolean', default: false } } });
if (!process.env.PLATFORM_TABLE) {
  console.error('Set PLATFORM_TABLE (see docs/deploy.md)');
  process.exit(1);
}
const dropOldKeys = values['drop-old-keys'];
const migrated = await migrateDeviceIndexes({ dropOldKeys });
console.log(
  `${migrated} device item(s) given their gsi3/gsi4 keys${dropOldKeys ? ' (gsi1/gsi2 keys taken away)' : ''}.`,
);
