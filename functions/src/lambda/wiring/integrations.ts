/** The integrations' ports: the device registry, the vendor clouds and their credentials. */
import { basicIngestReadings } from '../../adapters/basic-ingest-readings';
import { createEcobeeAdapter } from '../../adapters/vendors/ecobee';
import { DEFAULT_VENDOR_TIMEOUT_MS, type Fetch } from '../../adapters/vendors/http';
import { createNestAdapter } from '../../adapters/vendors/nest';
import { createRyseAdapter } from '../../adapters/vendors/ryse';
import { secretsManagerStore } from '../../adapters/vendors/secrets';
import { assertConfigured, config } from '../../config';
import type { IntegrationDeviceDirectory } from '../../domain/integrations/ports';
import { dynamoCommandStore } from '../../stores/commands';
import { dynamoDevices } from '../../stores/devices';
import { ENV } from '../../environment';
import { clock, logger } from './core';

// The vendor secrets are this function's own configuration: a cold start without them fails at once.
assertConfigured(process.env, [ENV.ryseSecretId, ENV.nestSecretId, ENV.ecobeeSecretId]);

const settings = config.integrations;
const timeoutMs = settings.timeoutMs > 0 ? settings.timeoutMs : DEFAULT_VENDOR_TIMEOUT_MS;
const fetchVendor: Fetch = (input, init) => fetch(input, init);
const secrets = secretsManagerStore(clock);

export const integrationDevices: IntegrationDeviceDirectory = {
  async get(devId) {
    const device = await dynamoDevices.get(devId);
    return device;
  },
};

/** The vendor clouds, which the poller reads too (lambda/vendor-poller.ts). */
export const vendorReadPorts = () => ({
  ryse: createRyseAdapter({
    fetch: fetchVendor,
    secrets,
    secretId: settings.secretIds.ryse,
    timeoutMs,
    apiUrl: settings.ryseApiUrl,
  }),
  nest: createNestAdapter({
    fetch: fetchVendor,
    secrets,
    secretId: settings.secretIds.nest,
    clock,
    timeoutMs,
    apiUrl: settings.nestApiUrl,
    oauthUrl: settings.googleOauthUrl,
  }),
  ecobee: createEcobeeAdapter({
    fetch: fetchVendor,
    secrets,
    secretId: settings.secretIds.ecobee,
    clock,
    logger,
    timeoutMs,
    apiUrl: settings.ecobeeApiUrl,
  }),
});

export const integrationPorts = () => ({
  devices: integrationDevices,
  commands: dynamoCommandStore,
  clock,
  logger,
  // What the panels read in the vendors' clouds goes on as the devices' readings.
  readings: basicIngestReadings,
  ...vendorReadPorts(),
});
