import { type App } from 'aws-cdk-lib';
import { type Route } from '@argentum/functions/http/types';
import { type PlatformConfig } from './config';
import { StatefulStack } from './stateful-stack';
import { StatelessStack } from './stateless-stack';

export interface PlatformOptions {
  routes: readonly Route[];
  /** The built web app (frontend/dist), or undefined to synthesize without deploying it. */
  siteAssetPath?: string;
}

export interface Platform {
  stateful: StatefulStack;
  stateless: StatelessStack;
}

/** Both stacks of the platform; the app and the tests build them the same way. */
export function createPlatform(app: App, config: PlatformConfig, options: PlatformOptions): Platform {
  const env = { region: config.region, account: config.account };
  const stateful = new StatefulStack(app, `${config.stackPrefix}Stateful`, {
    env,
    description: 'Argentum building-IoT platform: data (tables, files, users). Retained on delete.',
    telemetryStore: config.telemetryStore,
    appOrigin: config.appOrigin,
    terminationProtection: true,
  });
  const stateless = new StatelessStack(app, `${config.stackPrefix}Stateless`, {
    env,
    description: 'Argentum building-IoT platform: API, Lambdas, IoT wiring, web app.',
    stateful: stateful.refs,
    routes: options.routes,
    telemetryStore: config.telemetryStore,
    mailFrom: config.mailFrom,
    appOrigin: config.appOrigin,
    iotEndpoint: config.iotEndpoint,
    siteAssetPath: options.siteAssetPath,
    realtimeAuthorizerName: `${config.stackPrefix}-realtime`,
  });
  // The stateless stack imports the stateful stack's exports by name.
  stateless.addStackDependency(stateful);
  return { stateful, stateless };
}
