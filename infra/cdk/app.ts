import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { routes } from '@argentum/functions/routes/index';
import { readConfig } from './config';
import { frontendDist, frontendIsBuilt } from './paths';
import { createPlatform } from './platform';

const app = new App();
const config = readConfig(app);

if (!frontendIsBuilt()) {
  console.warn(
    `frontend/dist is missing: synthesizing without the web app deployment (run npm run build:frontend).`,
  );
}
createPlatform(app, config, { routes, siteAssetPath: frontendIsBuilt() ? frontendDist : undefined });

// cdk-nag (AWS Solutions) runs on every synth; an unacknowledged finding stops the synth.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

app.synth();
