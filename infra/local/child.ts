import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';

export interface ManagedChild {
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts a child process that cannot outlive us: it runs under a shell that holds a pipe from this
 * process and kills the child when the pipe closes, which happens even if we are killed with SIGKILL.
 */
export function spawnGuarded(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; logFile: string },
): ManagedChild {
  const quoted = [command, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const script = `${quoted} <&- & child=$!; trap 'kill $child 2>/dev/null' TERM INT; read _; kill $child 2>/dev/null; wait $child`;
  const child = spawn('sh', ['-c', script], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const log = createWriteStream(options.logFile, { flags: 'a' });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    process: child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin?.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls until `check` resolves true, or fails with `what` after the timeout. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not become ready within ${timeoutMs / 1000} s`);
}
