import { describe, expect, it } from 'vitest';
import { REALTIME_KEEPALIVE_SECONDS, realtimeEndpointOf, runtimeConfigSchema } from './runtimeConfig';

const base = { region: 'eu-west-1', userPoolId: 'eu-west-1_abc', userPoolClientId: 'client' };

describe('runtime configuration', () => {
  it("derives IoT Core's WebSocket endpoint and names the custom authorizer in the MQTT user name", () => {
    const config = runtimeConfigSchema.parse({
      ...base,
      iotEndpoint: 'a1b2c3-ats.iot.eu-west-1.amazonaws.com',
      iotAuthorizerName: 'argentum-realtime',
    });
    expect(realtimeEndpointOf(config)).toEqual({
      url: 'wss://a1b2c3-ats.iot.eu-west-1.amazonaws.com/mqtt',
      username: 'browser?x-amz-customauthorizer-name=argentum-realtime',
      keepAliveSeconds: REALTIME_KEEPALIVE_SECONDS,
    });
    expect(REALTIME_KEEPALIVE_SECONDS).toBe(60);
  });

  it('uses a given realtimeUrl as is (the local broker)', () => {
    const config = runtimeConfigSchema.parse({
      ...base,
      iotEndpoint: 'ignored',
      iotAuthorizerName: 'ignored',
      realtimeUrl: 'ws://127.0.0.1:9883/mqtt',
    });
    expect(realtimeEndpointOf(config)).toEqual({
      url: 'ws://127.0.0.1:9883/mqtt',
      username: 'browser',
      keepAliveSeconds: REALTIME_KEEPALIVE_SECONDS,
    });
  });

  it('takes a given keep-alive (1-1200 s)', () => {
    const config = runtimeConfigSchema.parse({
      ...base,
      realtimeUrl: 'ws://h/mqtt',
      realtimeKeepAliveSeconds: 6,
    });
    expect(realtimeEndpointOf(config)?.keepAliveSeconds).toBe(6);
    for (const bad of [0, 1201, 2.5]) {
      expect(runtimeConfigSchema.safeParse({ ...base, realtimeKeepAliveSeconds: bad }).success).toBe(false);
    }
  });

  it('has no endpoint without an authorizer, and refuses malformed files', () => {
    expect(realtimeEndpointOf(runtimeConfigSchema.parse({ ...base, iotEndpoint: 'x.iot' }))).toBeUndefined();
    expect(runtimeConfigSchema.safeParse({ ...base, realtimeUrl: 'http://example.com/mqtt' }).success).toBe(
      false,
    );
    expect(runtimeConfigSchema.safeParse({ region: 'eu-west-1' }).success).toBe(false);
  });
});
