import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The CDK tests synthesize the stacks many times, and CDK stages each app's assets in a temporary
 * folder (tens of MB with bundling) that nothing removes. The run gets a temporary folder of its own
 * (TMPDIR, which the workers inherit and os.tmpdir() reads), removed when the run ends.
 */
export default function setup() {
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(path.join(tmpdir(), 'argentum-cdk-tests-'));
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(dir, { recursive: true, force: true });
  };
}
