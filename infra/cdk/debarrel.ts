import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { init, parse } from 'es-module-lexer';
import type { Plugin, PluginBuild } from 'esbuild';

/**
 * Imports through the AWS SDK's barrel modules, rewritten to the files that define the names.
 *
 * The SDK's packages gather their parts in barrels (`@aws-sdk/core/protocols` re-exports the JSON,
 * XML, CBOR and query protocols). esbuild splits code by file: a barrel the cold start reaches (the
 * DynamoDB client imports its JSON protocol through it) makes every file behind it reachable at cold
 * start, so what only a lazily loaded client uses (the S3 client's XML protocol, waiters, checksum
 * streams) lands in the chunks read at every cold start. Importing each name from its own file leaves
 * those files to the chunk of the client that uses them.
 *
 * A barrel here is a file made only of `export ... from` statements. Only named imports are
 * rewritten (`import { a, b as c } from 'barrel'`); anything else is left as it is.
 */
const SDK_FILE = /[\\/]node_modules[\\/]@(aws-sdk|smithy)[\\/].*[\\/]dist-es[\\/].*\.js$/;
const NAMED_IMPORT = /^import\s*\{([^}]*)\}\s*from\s*(['"])([^'"]+)\2\s*;?$/s;
const RE_EXPORT = /^export\s*(\*|\{([^}]*)\})\s*from\s*(['"])([^'"]+)\3\s*;?$/s;
const COMMENTS = /\/\*[\s\S]*?\*\/|\/\/[^\n]*/g;

interface Binding {
  file: string;
  name: string;
}

/** `a`, `a as b` → [imported, local]. */
const specifiers = (list: string) =>
  list
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [imported = '', local] = part.split(/\s+as\s+/);
      return [imported.trim(), (local ?? imported).trim()] as const;
    });

export function debarrel(): Plugin {
  return {
    name: 'debarrel-aws-sdk',
    setup(build: PluginBuild) {
      /** Per file: its exported names and where each is defined, or undefined if not a barrel. */
      const barrels = new Map<string, Promise<Map<string, Binding> | undefined>>();
      /** Per file: the names it exports. */
      const exported = new Map<string, Promise<readonly string[]>>();

      const resolve = async (specifier: string, importer: string) => {
        const result = await build.resolve(specifier, {
          kind: 'import-statement',
          resolveDir: path.dirname(importer),
        });
        return result.errors.length === 0 && !result.external ? result.path : undefined;
      };

      const namesOf = (file: string): Promise<readonly string[]> => {
        let names = exported.get(file);
        if (!names) {
          names = (async () => {
            const barrel = await barrelOf(file);
            if (barrel) return [...barrel.keys()];
            await init;
            const [, exports] = parse(await readFile(file, 'utf8'));
            return exports.map((e) => e.n);
          })();
          exported.set(file, names);
        }
        return names;
      };

      const barrelOf = (file: string): Promise<Map<string, Binding> | undefined> => {
        let barrel = barrels.get(file);
        if (!barrel) {
          barrel = (async () => {
            if (!SDK_FILE.test(file)) return undefined;
            const source = await readFile(file, 'utf8');
            await init;
            const [imports] = parse(source);
            const statements = imports.filter((i) => i.d === -1).map((i) => source.slice(i.ss, i.se));
            // Anything besides re-exports: not a barrel.
            let rest = source.replace(COMMENTS, '');
            for (const statement of statements) rest = rest.replace(statement, '');
            if (rest.replace(/[\s;]/g, '') !== '') return undefined;
            const map = new Map<string, Binding>();
            for (const statement of statements) {
              const match = RE_EXPORT.exec(statement);
              if (!match) return undefined;
              const target = await resolve(match[4] ?? '', file);
              if (!target) return undefined;
              const inner = await barrelOf(target);
              const bind = (imported: string, as: string) => {
                map.set(as, inner?.get(imported) ?? { file: target, name: imported });
              };
              if (match[1] === '*') {
                for (const name of await namesOf(target)) if (name !== 'default') bind(name, name);
              } else {
                for (const [imported, as] of specifiers(match[2] ?? '')) bind(imported, as);
              }
            }
            return map;
          })();
          barrels.set(file, barrel);
        }
        return barrel;
      };

      build.onLoad({ filter: SDK_FILE }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        await init;
        const [imports] = parse(source);
        let contents = '';
        let at = 0;
        for (const record of imports) {
          if (record.d !== -1 || !record.n) continue;
          const statement = source.slice(record.ss, record.se);
          const match = NAMED_IMPORT.exec(statement);
          if (!match) continue;
          const target = await resolve(record.n, args.path);
          const barrel = target && (await barrelOf(target));
          if (!barrel) continue;
          const wanted = specifiers(match[1] ?? '');
          const bindings = wanted.map(
            ([imported, local]) => [barrel.get(imported), imported, local] as const,
          );
          if (bindings.some(([binding]) => !binding)) continue;
          const byFile = new Map<string, string[]>();
          for (const [binding, , local] of bindings) {
            if (!binding) continue;
            byFile.set(binding.file, [...(byFile.get(binding.file) ?? []), `${binding.name} as ${local}`]);
          }
          const rewritten = [...byFile]
            .map(([file, names]) => `import { ${names.join(', ')} } from ${JSON.stringify(file)};`)
            .join('\n');
          contents += source.slice(at, record.ss) + rewritten;
          at = record.se;
        }
        if (at === 0) return undefined;
        return { contents: contents + source.slice(at), loader: 'js', resolveDir: path.dirname(args.path) };
      });
    },
  };
}
