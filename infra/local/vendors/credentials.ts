/** The credentials the stand-ins accept, as the local secrets hold them. */
export const LOCAL_CREDENTIALS = {
  nest: {
    projectId: 'local-device-access-project',
    clientId: 'local-google-client.apps.googleusercontent.com',
    clientSecret: 'local-google-client-secret',
    refreshToken: '1//local-google-refresh-token',
  },
  ecobee: { apiKey: 'localEcobeeApiKey0123456789abcd', refreshToken: 'local-ecobee-refresh-0' },
  ryse: { token: 'local-ryse-bridge-token' },
};

/** The vendor ids of the demo devices (infra/local/demo-data.ts links them in properties). */
export const DEMO_VENDOR_IDS = {
  ryse: 'ryse-demo-lobby',
  nest: 'nest-demo-focus',
  ecobee: '411900000001',
};

export const localSecretIds = {
  ryse: 'argentum/local/integrations/ryse',
  nest: 'argentum/local/integrations/nest',
  ecobee: 'argentum/local/integrations/ecobee',
};
