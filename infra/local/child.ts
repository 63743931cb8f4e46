import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import { HOST } from './config';
import { freePort } from './http-util';

export interface ManagedChild {
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts a child process that cannot outlive us: it runs under a shell whose watcher holds a pipe from
 * this process and kills the child when the pipe closes, which happens even if we are killed with
 * SIGKILL. The shell ends with the child (its exit status), so a child that dies is seen at once.
 */
export function spawnGuarded(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; logFile: string },
): ManagedChild {
  const quoted = [command, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  // fd 3 is the pipe (an asynchronous list's own standard input is /dev/null); the watcher reads it.
  const script = [
    'exec 3<&0',
    `${quoted} <&- 3<&- & child=$!`,
    `trap 'kill $child 2>/dev/null' TERM INT`,
    `(read _ <&3; kill $child 2>/dev/null) & watcher=$!`,
    'exec 3<&-',
    'wait $child; status=$?',
    'kill $watcher 2>/dev/null',
    'exit $status',
  ].join('\n');
  const child = spawn('sh', ['-c', script], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  // Both outputs go to one log, which neither ends alone: it is ended once the child's output is read
  // to its end ('close'), so what the child wrote last (often why it died) is never lost.
  const log = createWriteStream(options.logFile, { flags: 'a' });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  const logWritten = new Promise<void>((resolve) => {
    log.once('error', () => resolve());
    child.once('close', () => log.end(() => resolve()));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    process: child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin?.end();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      // Its log complete, unless something it started still holds its output (then not waited for).
      let waited: NodeJS.Timeout | undefined;
      await Promise.race([logWritten, new Promise((resolve) => (waited = setTimeout(resolve, 1000)))]);
      clearTimeout(waited);
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

/** What a child server writes about its port (to stdout or stderr). */
export interface PortSignals {
  /** Written once it listens; its first group is the port. */
  listening: RegExp;
  /** Written when its port is taken (it then exits). */
  taken: RegExp;
}

/** Resolves with what `child` says first about `port`, or fails after `timeoutMs`. */
function portSaid(
  child: ManagedChild,
  port: number,
  signals: PortSignals,
  timeoutMs: number,
): Promise<'listening' | 'taken' | 'silent' | 'exited'> {
  const streams = [child.process.stdout, child.process.stderr].filter((stream) => stream !== null);
  return new Promise((resolve) => {
    let output = '';
    const settle = (said: 'listening' | 'taken' | 'silent' | 'exited') => {
      clearTimeout(timer);
      for (const stream of streams) stream.off('data', read);
      child.process.off('close', exited);
      resolve(said);
    };
    // Once its output is read to the end: a child that says its port is taken exits too.
    const exited = () => settle('exited');
    const read = (chunk: Buffer) => {
      // The last 64 KB is plenty for a line split across chunks; colours (cognito-local's) are dropped.
      output = stripVTControlCharacters(output + chunk.toString('utf8')).slice(-65_536);
      if (signals.taken.test(output)) return settle('taken');
      for (const match of output.matchAll(new RegExp(signals.listening, 'g')))
        if (Number(match[1]) === port) return settle('listening');
    };
    const timer = setTimeout(() => settle('silent'), timeoutMs);
    for (const stream of streams) stream.on('data', read);
    child.process.once('close', exited);
  });
}

/**
 * Starts a server in a child process (`spawn(port)`) on `port`, or on a free port when `port` is 0. A
 * child is given its port by number, so a port found free can be taken before the child binds it
 * (another stack starting beside this one, any process's outgoing connection): the child then says so
 * and exits, and another free port is tried. It is started once the child itself says it listens on
 * its port: a server of another process answering there is never taken for it. A fixed port that is
 * taken fails the start, naming it.
 */
export async function startChildServer(options: {
  /** The server's name, for errors. */
  what: string;
  port: number;
  spawn: (port: number) => ManagedChild;
  signals: PortSignals;
  /** Where its output goes, for errors. */
  logFile: string;
  timeoutMs?: number;
  attempts?: number;
}): Promise<{ child: ManagedChild; port: number }> {
  const { what, signals, timeoutMs = 60_000, attempts = 5 } = options;
  for (let attempt = 1; ; attempt++) {
    const port = options.port || (await freePort(HOST));
    const child = options.spawn(port);
    const said = await portSaid(child, port, signals, timeoutMs);
    if (said === 'listening') return { child, port };
    await child.stop();
    if (said === 'silent')
      throw new Error(
        `${what} did not listen on port ${port} within ${timeoutMs / 1000} s; see ${options.logFile}`,
      );
    if (said === 'exited')
      throw new Error(`${what} exited before it listened on port ${port}; see ${options.logFile}`);
    if (options.port) throw new Error(`${what} cannot listen on port ${port}: it is in use`);
    if (attempt === attempts)
      throw new Error(`${what}: each of ${attempts} free ports was taken before it could listen on it`);
  }
}
