import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ManagedChild, spawnGuarded, startChildServer, waitFor } from './child';
import { HOST } from './config';

/**
 * cognito-local in its own process (it keeps its pool files under the working directory), on `port`,
 * or on a free port when it is 0 (another is tried when the one found free is taken before it binds
 * it: its tokens name its port, so it is chosen before it starts).
 */
export async function startCognito(port: number, dataDir: string): Promise<ManagedChild & { port: number }> {
  const require = createRequire(import.meta.url);
  // cognito-local with the calls it lacks added (cognito-server.ts), run through tsx like the stack.
  const entry = fileURLToPath(new URL('./cognito-server.ts', import.meta.url));
  const dir = path.join(dataDir, 'cognito');
  mkdirSync(path.join(dir, '.cognito'), { recursive: true });
  const logFile = path.join(dataDir, 'cognito.log');
  const started = await startChildServer({
    what: 'cognito-local',
    port,
    logFile,
    // It logs `Cognito Local running on http://127.0.0.1:9229` once it listens; a taken port, EADDRINUSE.
    signals: { listening: /Cognito Local running on https?:\/\/\S+:(\d+)/, taken: /EADDRINUSE/ },
    spawn: (at) => {
      // Tokens name this issuer; the API server and the realtime authorizer verify against it.
      writeFileSync(
        path.join(dir, '.cognito', 'config.json'),
        JSON.stringify({ TokenConfig: { IssuerDomain: `http://${HOST}:${at}` } }, null, 2),
      );
      return spawnGuarded(process.execPath, ['--import', require.resolve('tsx'), entry], {
        cwd: dir,
        env: { ...process.env, PORT: String(at), HOST },
        logFile,
      });
    },
  });
  const { child } = started;
  try {
    await waitFor('cognito-local', async () => {
      if (child.process.exitCode !== null) throw new Error('cognito-local exited; see cognito.log');
      const response = await fetch(`http://${HOST}:${started.port}/health`).catch(() => undefined);
      return response !== undefined;
    });
  } catch (error) {
    await child.stop();
    throw error;
  }
  return { ...child, port: started.port };
}
