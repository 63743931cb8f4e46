import { createServer, type Server, type ServerResponse } from 'node:http';
import type { Broker } from './broker';
import { HOST } from './config';
import { listen, type ListenAt, readBody } from './http-util';
import { IOT_MAX_MESSAGE_BYTES, iotTopicRefusal } from './iot-policy';

const json = (response: ServerResponse, status: number, body: object, errorType?: string) =>
  response
    .writeHead(status, {
      'content-type': 'application/json',
      // How restJson services name an error; the SDK reads it to throw the matching exception.
      ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
    })
    .end(JSON.stringify(body));

/**
 * Stands in for the IoT data plane, answering the requests the SDK sends:
 * - Publish, `POST /topics/{topic}?qos=N`: publishes the body into the local broker; as the IoT data
 *   plane does (API reference, Publish, https://docs.aws.amazon.com/iot/latest/apireference/API_iotdata_Publish.html),
 *   it answers 400 InvalidRequestException for a `qos` other than 0 or 1 and for a topic the broker
 *   refuses (over 256 bytes or 7 slashes, Basic Ingest's prefix not counted, or with a wildcard), and
 *   413 RequestEntityTooLargeException for a payload over 128 KB;
 * - DeleteConnection, `DELETE /connections/{clientId}?cleanSession=&preventWillMessage=`: closes
 *   that client's connection, or answers 404 ResourceNotFoundException when it is not connected.
 */
export async function startIotDataShim(port: ListenAt, broker: Broker): Promise<Server> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://${HOST}`);
    const topic = /^\/topics\/(.+)$/.exec(url.pathname)?.[1];
    const clientId = /^\/connections\/([^/]+)$/.exec(url.pathname)?.[1];
    if (request.method === 'POST' && topic) {
      const qos = url.searchParams.get('qos') ?? '0';
      const name = decodeURIComponent(topic);
      const refused = qos === '0' || qos === '1' ? iotTopicRefusal(name, 'publish') : 'qos is 0 or 1';
      if (refused) {
        request.resume();
        json(response, 400, { message: refused }, 'InvalidRequestException');
        return;
      }
      readBody(request, IOT_MAX_MESSAGE_BYTES)
        .then((payload) => broker.publish(name, payload, qos === '1' ? 1 : 0))
        .then(() => json(response, 200, {}))
        .catch(() => json(response, 413, { message: 'Too large' }, 'RequestEntityTooLargeException'));
      return;
    }
    if (request.method === 'DELETE' && clientId) {
      broker
        .disconnect(decodeURIComponent(clientId))
        .then((closed) =>
          closed
            ? json(response, 200, {})
            : json(
                response,
                404,
                { message: 'No connection for this client id' },
                'ResourceNotFoundException',
              ),
        )
        .catch(() => json(response, 500, { message: 'Internal failure' }, 'InternalFailureException'));
      return;
    }
    json(response, 404, { message: 'Not Found' });
  });
  await listen(server, port, HOST);
  return server;
}
