import { createServer, type Server } from 'node:http';
import type { Broker } from './broker';
import { HOST } from './config';
import { listen, readBody } from './http-util';

/**
 * Stands in for the IoT data plane: `POST /topics/{topic}?qos=N` (what the SDK's Publish sends)
 * publishes the body into the local broker.
 */
export async function startIotDataShim(port: number, broker: Broker): Promise<Server> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://${HOST}`);
    const match = /^\/topics\/(.+)$/.exec(url.pathname);
    if (request.method !== 'POST' || !match?.[1]) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
      return;
    }
    const topic = decodeURIComponent(match[1]);
    const qos = url.searchParams.get('qos') === '1' ? 1 : 0;
    readBody(request, 128 * 1024)
      .then((payload) => broker.publish(topic, payload, qos))
      .then(() => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'))
      .catch(() =>
        response.writeHead(413, { 'content-type': 'application/json' }).end('{"message":"Too large"}'),
      );
  });
  await listen(server, port, HOST);
  return server;
}
