import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Bench } from './types';

const dist = path.resolve(import.meta.dirname, '../frontend/dist');

/** Initial JavaScript: the entry script and every module it preloads, gzip-compressed. */
const frontendBench: Bench = async () => {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const scripts = new Set<string>();
  for (const match of html.matchAll(
    /<script[^>]+src="([^"]+)"|<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g,
  )) {
    const src = match[1] ?? match[2];
    if (src) scripts.add(src);
  }
  let gzipBytes = 0;
  for (const src of scripts) gzipBytes += gzipSync(readFileSync(path.join(dist, src))).length;
  return [
    {
      name: 'Front end: initial JavaScript (gzip)',
      value: gzipBytes / 1024,
      unit: 'KB',
      goal: { max: 250 },
    },
  ];
};

export default frontendBench;
