import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The repository's own lint configuration, run on code placed where each forbidden import would stand:
// every case is linted as a file at that path (the imports resolve against the real tree).
const root = fileURLToPath(new URL('../../', import.meta.url));
let eslint: ESLint;

// Loading the configuration and its plugins takes seconds on a busy machine: done once, before the cases.
beforeAll(async () => {
  // ignore: false, for the cycle fixture (ignored by the repository's lint, which must pass).
  eslint = new ESLint({ cwd: root, ignore: false });
  await eslint.lintText('export {};\n', { filePath: `${root}tools/lint/warm-up.ts` });
}, 120_000);

async function ruleIds(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${filePath}` });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

const forbidden: { name: string; file: string; code: string }[] = [
  {
    name: 'a feature imports another feature three folders up',
    file: 'frontend/src/features/floor-plan/components/edit/Fixture.ts',
    code: "import { treeQueries } from '../../../tree';\nexport const fixture = treeQueries;\n",
  },
  {
    name: 'a feature imports another feature one folder up',
    file: 'frontend/src/features/account/Fixture.ts',
    code: "import { treeQueries } from '../tree';\nexport const fixture = treeQueries;\n",
  },
  {
    name: 'shared code imports a feature',
    file: 'frontend/src/shared/ui/Fixture.ts',
    code: "import { treeQueries } from '../../features/tree';\nexport const fixture = treeQueries;\n",
  },
  {
    name: 'shared code imports the app',
    file: 'frontend/src/shared/ui/Fixture.ts',
    code: "import { queryClient } from '../../app/queryClient';\nexport const fixture = queryClient;\n",
  },
  {
    name: 'a feature imports the app',
    file: 'frontend/src/features/tree/components/Fixture.ts',
    code: "import { queryClient } from '../../../app/queryClient';\nexport const fixture = queryClient;\n",
  },
  {
    name: 'the web app imports functions',
    file: 'frontend/src/shared/ui/Fixture.ts',
    code: "import { ENV } from '../../../../functions/src/environment';\nexport const fixture = ENV;\n",
  },
  ...[
    'routes/index',
    'openapi/openapi',
    'environment',
    'config',
    'stores/devices',
    'http/error-mapper',
    'aws/dynamo',
    'adapters/mail',
    'lambda/ingest',
  ].map((path) => ({
    name: `domain code imports ${path}`,
    file: 'functions/src/domain/tree/Fixture.ts',
    code: `import * as fixture from '../../${path}';\nexport { fixture };\n`,
  })),
  {
    name: 'the contracts import functions',
    file: 'contracts/src/fixture.ts',
    code: "import { ENV } from '../../functions/src/environment';\nexport const fixture = ENV;\n",
  },
  {
    name: 'functions import infra',
    file: 'functions/src/lib/fixture.ts',
    code: "import * as fixture from '../../../infra/src/definitions';\nexport { fixture };\n",
  },
];

describe('boundary lint', { timeout: 30_000 }, () => {
  it.each(forbidden)('fails when $name', async ({ file, code }) => {
    expect(await ruleIds(file, code)).toEqual(['import-x/no-restricted-paths']);
  });

  it('passes the imports the layers allow (so the cases above fail for their boundary, not for resolution)', async () => {
    const allowed: [string, string][] = [
      [
        'frontend/src/features/floor-plan/components/edit/Fixture.ts',
        "import { DeviceType } from '@argentum/contracts/messaging';\nimport { ApiError } from '../../../../shared/api/client';\nimport * as mode from '../../model/modeReducer';\nexport const fixture = [DeviceType, ApiError, mode];\n",
      ],
      [
        'frontend/src/app/Fixture.ts',
        "import { treeQueries } from '../features/tree';\nexport const fixture = treeQueries;\n",
      ],
      [
        'functions/src/domain/tree/Fixture.ts',
        "import { DomainError } from '../errors';\nimport { mapLimited } from '../../lib/concurrency';\nexport const fixture = [DomainError, mapLimited];\n",
      ],
      [
        'functions/src/lambda/Fixture.ts',
        "import { ENV } from '../environment';\nexport const fixture = ENV;\n",
      ],
    ];
    for (const [file, code] of allowed)
      expect({ file, rules: await ruleIds(file, code) }).toEqual({ file, rules: [] });
  });

  it('fails on an import cycle', async () => {
    const [result] = await eslint.lintFiles([`${root}tools/lint/fixtures/cycle/first.ts`]);
    expect(result?.messages.map((message) => message.ruleId)).toEqual(['import-x/no-cycle']);
  });
});
