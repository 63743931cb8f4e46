import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ManagedChild, spawnGuarded, waitFor } from './child';
import { HOST } from './config';

/** cognito-local in its own process (it keeps its pool files under the working directory). */
export async function startCognito(port: number, dataDir: string): Promise<ManagedChild> {
  const require = createRequire(import.meta.url);
  // cognito-local with the calls it lacks added (cognito-server.ts), run through tsx like the stack.
  const entry = fileURLToPath(new URL('./cognito-server.ts', import.meta.url));
  const dir = path.join(dataDir, 'cognito');
  mkdirSync(path.join(dir, '.cognito'), { recursive: true });
  // Tokens name this issuer; the API server and the realtime authorizer verify against it.
  writeFileSync(
    path.join(dir, '.cognito', 'config.json'),
    JSON.stringify({ TokenConfig: { IssuerDomain: `http://${HOST}:${port}` } }, null, 2),
  );
  const child = spawnGuarded(process.execPath, ['--import', require.resolve('tsx'), entry], {
    cwd: dir,
    env: { ...process.env, PORT: String(port), HOST },
    logFile: path.join(dataDir, 'cognito.log'),
  });
  await waitFor('cognito-local', async () => {
    if (child.process.exitCode !== null) throw new Error('cognito-local exited; see cognito.log');
    const response = await fetch(`http://${HOST}:${port}/health`).catch(() => undefined);
    return response !== undefined;
  });
  return child;
}
