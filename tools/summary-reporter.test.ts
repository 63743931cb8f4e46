import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const fixture = join(here, 'fixtures', 'reporter');

it("ends a run with what each failed test wrote to stderr, its hooks' included, then the counts", async () => {
  const run = await promisify(execFile)(
    process.execPath,
    [
      join(here, '..', 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--config',
      join(fixture, 'vitest.config.ts'),
    ],
    { cwd: fixture, env: { ...process.env, VITEST: undefined, NO_COLOR: '1' } },
  ).catch((error: { stdout: string; code: number }) => error);
  expect('code' in run ? run.code : 0).toBe(1);
  const end = run.stdout.slice(run.stdout.lastIndexOf('\nFailed: '));
  expect(end).toContain('tests.fixture.ts > fails after writing why');
  expect(end).toContain('the form never came');
  expect(end).toContain('the page of "fails after writing why" shows: Choose an organization');
  expect(end).not.toContain('a passing test may write to stderr too');
  expect(end.trim().split('\n').at(-1)).toBe('Tests: 1 passed, 1 failed');
});
