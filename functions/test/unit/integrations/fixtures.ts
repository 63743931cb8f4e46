/**
 * Vendor answers as their APIs send them (shapes from the vendors' documentation and recorded
 * exchanges), for the adapters' contract tests.
 */

/** SDM GET of a thermostat in HEAT mode (developers.google.com/nest/device-access/api/thermostat). */
export const sdmThermostat = {
  name: 'enterprises/project-id/devices/device-id',
  type: 'sdm.devices.types.THERMOSTAT',
  assignee: 'enterprises/project-id/structures/structure-id/rooms/room-id',
  traits: {
    'sdm.devices.traits.Info': { customName: '' },
    'sdm.devices.traits.Humidity': { ambientHumidityPercent: 35.0 },
    'sdm.devices.traits.Connectivity': { status: 'ONLINE' },
    'sdm.devices.traits.Fan': { timerMode: 'OFF' },
    'sdm.devices.traits.ThermostatMode': {
      mode: 'HEAT',
      availableModes: ['HEAT', 'COOL', 'HEATCOOL', 'OFF'],
    },
    'sdm.devices.traits.ThermostatEco': {
      availableModes: ['OFF', 'MANUAL_ECO'],
      mode: 'OFF',
      heatCelsius: 17.7,
      coolCelsius: 25.5,
    },
    'sdm.devices.traits.ThermostatHvac': { status: 'HEATING' },
    'sdm.devices.traits.Settings': { temperatureScale: 'CELSIUS' },
    'sdm.devices.traits.ThermostatTemperatureSetpoint': { heatCelsius: 20.5 },
    'sdm.devices.traits.Temperature': { ambientTemperatureCelsius: 21.83 },
  },
  parentRelations: [
    { parent: 'enterprises/project-id/structures/structure-id/rooms/room-id', displayName: 'Office' },
  ],
};

/** Google's token endpoint answering a refresh. */
export const googleToken = {
  access_token: 'ya29.a0AfH6SMC-recorded',
  expires_in: 3599,
  scope: 'https://www.googleapis.com/auth/sdm.service',
  token_type: 'Bearer',
};
export const googleInvalidGrant = {
  error: 'invalid_grant',
  error_description: 'Token has been expired or revoked.',
};
export const sdmUnauthenticated = {
  error: {
    code: 401,
    message: 'Request had invalid authentication credentials. Expected OAuth 2 access token.',
    status: 'UNAUTHENTICATED',
  },
};
export const sdmFailedPrecondition = {
  error: { code: 400, message: 'Cannot change setpoint while in eco mode.', status: 'FAILED_PRECONDITION' },
};
export const sdmNotFound = { error: { code: 404, message: 'Device not found.', status: 'NOT_FOUND' } };

/** Ecobee GET /1/thermostat with runtime, settings and events (settings trimmed to what matters). */
export const ecobeeThermostats = {
  page: { page: 1, totalPages: 1, pageSize: 1, total: 1 },
  thermostatList: [
    {
      identifier: '318324702718',
      name: 'Main Floor',
      thermostatRev: '241122103215',
      isRegistered: true,
      modelNumber: 'athenaSmart',
      runtime: {
        runtimeRev: '241122103215',
        connected: true,
        actualTemperature: 716,
        actualHumidity: 43,
        rawTemperature: 716,
        desiredHeat: 698,
        desiredCool: 752,
        desiredHumidity: 36,
        desiredFanMode: 'auto',
        desiredHeatRange: [450, 790],
        desiredCoolRange: [650, 920],
      },
      settings: { hvacMode: 'cool', heatCoolMinDelta: 50, coolStages: 1, heatStages: 1 },
      events: [
        {
          type: 'hold',
          name: 'auto',
          running: true,
          startDate: '2026-11-22',
          startTime: '10:32:15',
          endDate: '2026-11-22',
          endTime: '18:00:00',
          isTemperatureAbsolute: true,
          coolHoldTemp: 752,
          heatHoldTemp: 698,
          holdClimateRef: '',
        },
      ],
    },
  ],
  status: { code: 0, message: '' },
};
export const ecobeeOk = { status: { code: 0, message: '' } };
export const ecobeeTokenExpired = {
  status: {
    code: 14,
    message: 'Authentication token has expired. Refresh your tokens. Please refer to our documentation.',
  },
};
export const ecobeeValidationError = {
  status: { code: 7, message: 'Validation error. Hold temperature is out of range.' },
};
export const ecobeeToken = {
  access_token: 'Rc7JE8P7XUgSCPogLOx2VLMfITqQQrjg',
  token_type: 'Bearer',
  expires_in: 3599,
  refresh_token: 'og2Obost3ucRo1ofo0EDoslGltmFMe2g',
  scope: 'smartWrite',
};
export const ecobeeInvalidGrant = {
  error: 'invalid_grant',
  error_description: 'The refresh token is invalid.',
};

/** The Ryse SmartBridge's shade and move answers (the shape documented in adapters/vendors/ryse.ts). */
export const ryseShade = { id: 'shade-1', name: 'Lobby', position: 40, battery: 87, online: true };
export const ryseMoved = { id: 'shade-1', position: 75 };
