import type { Context } from 'aws-lambda';
import { withVendorDeadline } from '../adapters/vendors/http';
import { createApiHandler } from '../http/api-handler';
import type { ApiEvent } from '../http/types';
import { integrationsRoutes } from '../routes/integrations.routes';
import { users } from './wiring/core';
import { integrationPorts } from './wiring/integrations';

/** Time kept back from the Lambda's own limit to answer a vendor timeout as a clear 504. */
const ANSWER_RESERVE_MS = 1500;

const apiHandler = createApiHandler(integrationsRoutes, { users, ...integrationPorts() });

export const handler = (event: ApiEvent, context: Context) =>
  withVendorDeadline(Date.now() + context.getRemainingTimeInMillis() - ANSWER_RESERVE_MS, () =>
    apiHandler(event, context),
  );
