// Stops at once, naming the versions, on a Node older than package.json's `engines` accepts: `npm start`
// runs this before anything else, and main.ts imports it first. Plain JavaScript, so any Node runs it.
import { readFileSync } from 'node:fs';

const read = (file) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const [, minMajor, minMinor] = (/(\d+)\.(\d+)/.exec(JSON.parse(read('package.json')).engines.node) ?? []).map(
  Number,
);
const recommended = read('.node-version').trim().split('.')[0];
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < minMajor || (major === minMajor && minor < minMinor)) {
  console.error(
    `Argentum needs Node.js ${minMajor}.${minMinor} or newer, and recommends Node ${recommended} ` +
      `(what its Lambdas run on, nodejs${recommended}.x); this is Node ${process.versions.node}.`,
  );
  process.exit(1);
}
