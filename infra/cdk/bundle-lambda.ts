import { build } from 'esbuild';
import { lambdaBuild } from './lambda-bundling';

/**
 * Bundles one Lambda as lambda-bundling.ts says: `bundle-lambda.ts <entry> <outdir> [native package...]`
 * (native packages stay external and are installed beside the bundle). CDK's local bundling is
 * synchronous and esbuild's plugins run only in its asynchronous build, so the construct runs this.
 */
const [entry, outdir, ...native] = process.argv.slice(2);
if (!entry || !outdir) throw new Error('usage: bundle-lambda.ts <entry> <outdir> [native package...]');
const options = lambdaBuild(entry, outdir);
await build({ ...options, external: [...(options.external ?? []), ...native], logLevel: 'error' });
