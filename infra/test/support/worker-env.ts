import { afterAll, expect, inject } from 'vitest';
import { dynamo } from '../../../functions/src/aws/dynamo';
import { enforceTableGrants, type Refusal } from '../../local/function-grants';
import { platformTable, telemetryTable } from '../../src/definitions';
import '../../../functions/test/support/provided';

// Each test worker talks to the shared local stack through the same environment a Lambda gets.
Object.assign(process.env, inject('stack').env);

// A handler a test runs itself runs as its function (`asFunction`), with only its role's table access,
// as the local stack runs its own. A refusal may be swallowed where a handler reports a failure
// instead of throwing, so each file also ends with none on record.
const refusals: Refusal[] = [];
enforceTableGrants(
  dynamo(),
  { platform: platformTable.localName, telemetry: telemetryTable.localName },
  (refusal) => refusals.push(refusal),
);
afterAll(() => {
  expect(refusals, 'requests that AWS would refuse the functions that made them').toEqual([]);
});
