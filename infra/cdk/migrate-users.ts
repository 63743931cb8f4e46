/**
 * Rewrites user records from before roles belonged to memberships (one `role` and a list `orgIds`)
 * in place: each of their organizations gets that role. Idempotent and safe beside live traffic
 * (every write is conditioned on the record read); records not yet migrated keep working meanwhile.
 *
 *   AWS_REGION=... PLATFORM_TABLE=<PlatformTableName output> npx tsx infra/cdk/migrate-users.ts
 */
import { migrateUserRecords } from '@argentum/functions/stores/users';

if (!process.env.PLATFORM_TABLE) {
  console.error('Set PLATFORM_TABLE (see docs/deploy.md)');
  process.exit(1);
}
const migrated = await migrateUserRecords();
console.log(`${migrated} user record(s) migrated to per-organization roles.`);
