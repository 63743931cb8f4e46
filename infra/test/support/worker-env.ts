import { afterAll, expect, inject } from 'vitest';
import { describeRefusal, enforceFunctionGrants, type Refusal } from '../../local/function-grants';
import '../../../functions/test/support/provided';

// Each test worker talks to the shared local stack through the same environment a Lambda gets.
Object.assign(process.env, inject('stack').env);

// A handler a test runs itself runs as its function (`asFunction`), with only what its role allows,
// as the local stack runs its own. A refusal may be swallowed where a handler reports a failure
// instead of throwing, so each file also ends with none on record.
const refusals: Refusal[] = [];
await enforceFunctionGrants((refusal) => refusals.push(refusal));
afterAll(() => {
  expect(refusals.map(describeRefusal), 'requests AWS would refuse the functions that made them').toEqual([]);
});
