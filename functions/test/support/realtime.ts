import { randomUUID } from 'node:crypto';
import { connectAsync, type MqttClient } from 'mqtt';
import {
  type NotificationPush,
  notificationPushesOf,
  REALTIME_TOKEN_PATH,
  realtimeUsername,
  type RealtimeTokenView,
} from '@argentum/contracts';
import { notificationMessageSchema } from '@argentum/contracts/messaging';
import { call, stack } from './api';
import { connectWithinClientIdRate } from '../../../infra/local/device-credentials';

/** A browser's client id (`web-<uuid>`), as the front end makes one. */
export const browserClientId = () => `web-${randomUUID()}`;

/** Mints a connection token through the API, as the browser does before each connect. */
export const mintConnectionToken = (accessToken: string, clientId: string, orgIds?: string[]) =>
  call<RealtimeTokenView>(
    REALTIME_TOKEN_PATH,
    { clientId, ...(orgIds ? { orgIds } : {}) },
    { token: accessToken },
  );

/** An MQTT/WebSocket connection to the local broker with this user name and client id. */
export const connectWs = (username: string, clientId: string): Promise<MqttClient> =>
  connectWithinClientIdRate(() =>
    connectAsync(`ws://127.0.0.1:${stack.mqttWsPort}/mqtt`, {
      username,
      clientId,
      reconnectPeriod: 0,
      protocolVersion: 4,
    }),
  );

/**
 * A browser's real-time connection, made as the web app makes it: a connection token for its client id
 * and the organizations it watches (the caller's first ones when none are named), presented in the MQTT
 * user name. Rejects when the API refuses the token or the broker the connection.
 */
export async function connectBrowser(
  accessToken: string,
  options: { clientId?: string; orgIds?: string[] } = {},
): Promise<MqttClient> {
  const clientId = options.clientId ?? browserClientId();
  const minted = await mintConnectionToken(accessToken, clientId, options.orgIds);
  if (minted.status !== 200) throw new Error(`realtimeToken answered ${minted.status}`);
  return connectWs(realtimeUsername('browser', minted.body), clientId);
}

/**
 * The notification pushes a connection receives on its `{orgId}/notification` subscriptions, in order,
 * whether each came alone or with others in one message (read as the browser reads them).
 */
export function notificationPushesReceived(client: MqttClient): {
  pushes: NotificationPush[];
  /** How many messages carried them. */
  messages: () => number;
} {
  const pushes: NotificationPush[] = [];
  let messages = 0;
  client.on('message', (topic, payload) => {
    if (!topic.endsWith('/notification')) return;
    messages++;
    pushes.push(...notificationPushesOf(notificationMessageSchema.parse(JSON.parse(payload.toString()))));
  });
  return { pushes, messages: () => messages };
}
