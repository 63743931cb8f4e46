// The layers of the code base as path zones for import-x/no-restricted-paths: `target` files may not
// import anything under `from` (except the `except` paths, relative to `from`). Paths are resolved, so
// `../../../tree` and `@argentum/...` are judged by where they land, however many folders up.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const at = (path) => `${root}${path}`;

const frontend = 'frontend/src';
const features = readdirSync(at(`${frontend}/features`), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const domain = 'functions/src/domain';

/** @type {{ target: string, from: string | string[], except?: string[], message: string }[]} */
export const boundaryZones = [
  // Front end: app/ composes features; a feature imports itself and shared/; shared/ imports neither.
  ...features.map((feature) => ({
    target: at(`${frontend}/features/${feature}`),
    from: at(`${frontend}/features`),
    except: [`./${feature}`],
    message: 'Features do not import each other: move what both need to shared/, or compose them in app/.',
  })),
  {
    target: at(`${frontend}/features`),
    from: at(`${frontend}/app`),
    message: 'Features do not import the app: the app composes them.',
  },
  {
    target: at(`${frontend}/shared`),
    from: [at(`${frontend}/features`), at(`${frontend}/app`)],
    message: 'Shared code imports no feature and not the app: it serves them all.',
  },
  // Functions: domain code names ports; adapters, stores, HTTP, AWS, routes and configuration are
  // composed by the Lambda entry points.
  {
    target: at(domain),
    from: [
      'http',
      'stores',
      'adapters',
      'aws',
      'lambda',
      'routes',
      'openapi',
      'config.ts',
      'environment.ts',
    ].map((path) => at(`functions/src/${path}`)),
    message:
      'Domain code imports no HTTP, store, adapter, AWS, Lambda, route, OpenAPI or configuration code: name a port.',
  },
  // Workspaces: the contracts import nobody; functions and the front end do not import each other or infra.
  {
    target: at('contracts'),
    from: [at('functions'), at('frontend'), at('infra')],
    message: 'The contracts import no other workspace.',
  },
  {
    target: at('functions/src'),
    from: [at('frontend'), at('infra')],
    message: 'Functions import neither the front end nor infra.',
  },
  {
    target: at('frontend/src'),
    from: [at('functions'), at('infra')],
    message: 'The web app imports only the contracts, not functions or infra.',
  },
];
