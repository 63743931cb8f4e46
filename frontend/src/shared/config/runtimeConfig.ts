import * as z from 'zod/mini';

/**
 * What the web app reads from `/config.json` at startup: deploy-time values the build cannot know. On
 * AWS the deployment writes it next to the app (infra/cdk stateless stack); locally the API server
 * answers it, with `realtimeUrl` (the local broker) instead of IoT Core's endpoint and authorizer.
 */
export const runtimeConfigSchema = z.lazy(() =>
  z.object({
    region: z.string().check(z.minLength(1)),
    userPoolId: z.string().check(z.minLength(1)),
    userPoolClientId: z.string().check(z.minLength(1)),
    /** IoT Core's data endpoint (ATS), e.g. `abc-ats.iot.eu-west-1.amazonaws.com`. */
    iotEndpoint: z.optional(z.string().check(z.minLength(1))),
    /** The IoT custom authorizer that admits browsers by their access token. */
    iotAuthorizerName: z.optional(z.string().check(z.minLength(1))),
    /** A real-time WebSocket URL given as is (the local stack). */
    realtimeUrl: z.optional(z.url({ protocol: /^wss?$/ })),
    /**
     * The MQTT keep-alive the browser asks for (seconds; REALTIME_KEEPALIVE_SECONDS when absent). IoT
     * Core treats less than 30 as 30 and allows at most 1,200; tests of the local broker ask for less.
     */
    realtimeKeepAliveSeconds: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(1200))),
  }),
);
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

/**
 * The keep-alive of the browser's MQTT connection (seconds): a PINGREQ when nothing else was sent for
 * this long; the broker (IoT Core, aedes) closes a connection silent for 1.5 times it.
 */
export const REALTIME_KEEPALIVE_SECONDS = 60;

/** Where and as whom the browser connects to the real-time channel; the password is the access token. */
export interface RealtimeEndpoint {
  url: string;
  username: string;
  keepAliveSeconds: number;
}

/**
 * The real-time endpoint of a configuration: a given `realtimeUrl` (local broker, any user name), else
 * IoT Core's MQTT-over-WebSocket endpoint with the custom authorizer named in the user name, as AWS
 * documents for custom authentication with MQTT user name and password. Undefined: no real-time channel.
 */
export function realtimeEndpointOf(config: RuntimeConfig): RealtimeEndpoint | undefined {
  const keepAliveSeconds = config.realtimeKeepAliveSeconds ?? REALTIME_KEEPALIVE_SECONDS;
  if (config.realtimeUrl) return { url: config.realtimeUrl, username: 'browser', keepAliveSeconds };
  if (!config.iotEndpoint || !config.iotAuthorizerName) return undefined;
  return {
    url: `wss://${config.iotEndpoint}/mqtt`,
    username: `browser?x-amz-customauthorizer-name=${encodeURIComponent(config.iotAuthorizerName)}`,
    keepAliveSeconds,
  };
}

let loading: Promise<RuntimeConfig> | undefined;

/** Reads `/config.json` once (shared by every caller); a failure is retried on the next call. */
export function loadRuntimeConfig(): Promise<RuntimeConfig> {
  loading ??= (async () => {
    const response = await fetch('/config.json', { headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`/config.json answered ${response.status}`);
    const parsed = runtimeConfigSchema.safeParse(await response.json());
    if (!parsed.success) throw new Error(`/config.json is not valid: ${parsed.error.issues[0]?.message}`);
    return parsed.data;
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
