import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** The repository root: the CDK app lives in infra/cdk. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The Lambda entry file of a handler in functions/src/lambda. */
export const lambdaEntry = (name: string) => path.join(repoRoot, 'functions', 'src', 'lambda', `${name}.ts`);

/** The lock file that makes esbuild bundle from the workspace root. */
export const lockFile = path.join(repoRoot, 'package-lock.json');

/** The built web app; absent until `npm run build:frontend` ran. */
export const frontendDist = path.join(repoRoot, 'frontend', 'dist');

export const frontendIsBuilt = () => existsSync(path.join(frontendDist, 'index.html'));
