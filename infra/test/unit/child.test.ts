import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnGuarded, startChildServer } from '../../local/child';

const dir = mkdtempSync(path.join(tmpdir(), 'argentum-child-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A guarded `sh -c script`, its output in `name`.log. */
const guarded = (name: string, script: string) =>
  spawnGuarded('sh', ['-c', script], { cwd: dir, logFile: path.join(dir, `${name}.log`) });

describe('a guarded child process', () => {
  it('ends with its child: a child that dies is seen at once, with its status', async () => {
    const child = guarded('dies', 'echo starting; exit 3');
    const status = await new Promise<number | null>((resolve) => child.process.once('exit', resolve));
    expect(status).toBe(3);
  });

  it('kills its child when the pipe from the stack closes (the stack stopped or was killed)', async () => {
    const child = guarded('sleeps', 'echo $$; exec sleep 60');
    const pid = await new Promise<number>((resolve) =>
      child.process.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
    );
    expect(alive(pid)).toBe(true);
    // What a SIGKILL of the stack does to the pipe: it closes.
    child.process.stdin?.end();
    await new Promise((resolve) => child.process.once('exit', resolve));
    await expect.poll(() => alive(pid)).toBe(false);
  });

  it('keeps in its log all the child wrote, its last words included, when one output ends before the other', async () => {
    // stdout ends at once; 200 KB on stderr take several reads, the last line after them.
    const child = guarded(
      'last-words',
      `echo out; head -c 200000 /dev/zero | tr '\\0' x >&2; echo >&2; echo 'last words' >&2; exit 1`,
    );
    await new Promise((resolve) => child.process.once('exit', resolve));
    await child.stop();
    const logged = readFileSync(path.join(dir, 'last-words.log'), 'utf8');
    expect(logged).toContain('out\n');
    expect(logged.match(/x/g)).toHaveLength(200_000);
    expect(logged.endsWith('last words\n')).toBe(true);
  });

  it('fails a server start at once when the child exits before it listens, naming its log', async () => {
    const logFile = path.join(dir, 'crash.log');
    await expect(
      startChildServer({
        what: 'Crashing server',
        port: 0,
        logFile,
        signals: { listening: /listening on (\d+)/, taken: /address in use/ },
        spawn: () => spawnGuarded('sh', ['-c', 'echo "no Java runtime" >&2; exit 1'], { cwd: dir, logFile }),
        // Far beyond the test's own timeout: only the child's exit can end the start in time.
        timeoutMs: 600_000,
      }),
    ).rejects.toThrow(`Crashing server exited before it listened on port`);
    expect(readFileSync(logFile, 'utf8')).toContain('no Java runtime');
  });
});
