import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { routes } from '@argentum/functions/routes/index';
import { readConfig } from '../../cdk/config';
import { createPlatform, type Platform } from '../../cdk/platform';

export interface SynthOptions {
  /** Run esbuild for the Lambdas (slow); off, CDK skips bundling and stages a placeholder. */
  bundle?: boolean;
  /** Deploy a stand-in web app build (an index.html), as if frontend/dist existed. */
  withSite?: boolean;
  context?: Record<string, string>;
}

export interface SynthesizedPlatform extends Platform {
  app: App;
}

/** A stand-in for frontend/dist, so the tests do not depend on a front-end build. */
function siteFixture(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'argentum-site-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Argentum</title>');
  writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.log("app");');
  return dir;
}

/** Builds and synthesizes the platform app the way infra/cdk/app.ts does (without the nag plugin). */
export function synthPlatform(options: SynthOptions = {}): SynthesizedPlatform {
  const app = new App({
    outdir: mkdtempSync(path.join(tmpdir(), 'argentum-cdk-')),
    context: {
      ...(options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] }),
      // Required (there is no default sender); tests may override it.
      mailFrom: 'no-reply@example.com',
      ...options.context,
    },
  });
  const platform = createPlatform(app, readConfig(app), {
    routes,
    siteAssetPath: options.withSite ? siteFixture() : undefined,
  });
  app.synth();
  return { app, ...platform };
}
