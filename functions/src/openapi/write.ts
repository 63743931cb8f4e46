import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { routes } from '../routes/index';
import { openApiDocument } from './openapi';

/** Writes the API description where the web app serves it (`/openapi.json`). */
const target = path.resolve(process.argv[2] ?? 'frontend/public/openapi.json');
mkdirSync(path.dirname(target), { recursive: true });
writeFileSync(target, `${JSON.stringify(openApiDocument(routes), null, 2)}\n`);
console.log(
  `API description written to ${path.relative(process.cwd(), target)} (${routes.length} operations)`,
);
