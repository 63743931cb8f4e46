import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { defaultDataDir } from './config';

const dataDir = defaultDataDir();
const pidFile = path.join(dataDir, 'stack.pid');
if (existsSync(pidFile)) {
  const pid = Number(readFileSync(pidFile, 'utf8'));
  let running = false;
  try {
    process.kill(pid, 0);
    running = true;
  } catch {
    running = false;
  }
  if (running) {
    console.error(`The local platform is running (pid ${pid}). Stop it with Ctrl-C first.`);
    process.exit(1);
  }
}
rmSync(dataDir, { recursive: true, force: true });
console.log(`Removed ${dataDir}. The next \`npm start\` loads the demo data afresh.`);
