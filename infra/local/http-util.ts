import type { IncomingMessage, Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';

export class BodyTooLarge extends Error {}

/**
 * The client closed its connection before its request was read (cut mid-body, or whole but not yet
 * read): there is no one to answer, and nothing failed on this side (API Gateway invokes nothing for
 * such a request).
 */
export class ClientAborted extends Error {}

/** Reads a request body, refusing more than `limit` bytes. */
export async function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of request) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      if (size > limit) throw new BodyTooLarge();
      chunks.push(buffer);
    }
  } catch (error) {
    // Cut mid-body, or whole but not yet read when the connection closed (Node then destroys it).
    if (!(error instanceof BodyTooLarge) && (!request.complete || request.destroyed))
      throw new ClientAborted('the client closed its connection before its request was read', {
        cause: error,
      });
    throw error;
  }
  return Buffer.concat(chunks);
}

/**
 * A port held from the moment it is chosen until its server listens on it: the listening socket itself,
 * handed to the server (`listen`). A port found free, released and bound again a moment later can be
 * taken in between, by another stack starting beside this one or any other process (EADDRINUSE at
 * start-up); a held one cannot. A connection made to it before its server takes it is closed.
 */
export class PortReservation {
  #socket: NetServer | undefined;

  private constructor(
    socket: NetServer,
    readonly port: number,
  ) {
    this.#socket = socket;
  }

  /** Holds `port` on `host`, or a free port there when `port` is 0; fails when the port is taken. */
  static async hold(host: string, port = 0): Promise<PortReservation> {
    const socket = createNetServer((connection) => connection.destroy());
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.listen(port, host, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    const address = socket.address();
    if (!address || typeof address === 'string') throw new Error(`No TCP port held on ${host}`);
    return new PortReservation(socket, address.port);
  }

  /** The held socket, for its server to listen on (once). */
  take(): NetServer {
    const socket = this.#socket;
    if (!socket) throw new Error(`Port ${this.port} was already handed to its server, or released`);
    this.#socket = undefined;
    return socket;
  }

  /** Lets the port go, unless its server took it. */
  async release(): Promise<void> {
    const socket = this.#socket;
    this.#socket = undefined;
    if (socket) await new Promise<void>((resolve) => socket.close(() => resolve()));
  }
}

/** Where a server listens: a port number (0: any free port), or a port held for it. */
export type ListenAt = number | PortReservation;

/** Listens on `at`; a reservation's socket is taken over as it is (Node's `server.listen(handle)`). */
export function listen(server: NetServer, at: ListenAt, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    const listening = () => {
      server.off('error', reject);
      resolve();
    };
    if (at instanceof PortReservation) server.listen(at.take(), listening);
    else server.listen(at, host, listening);
  });
}

/** The TCP port a listening server is bound to. */
export function boundPort(server: NetServer): number {
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('The server is not listening on a TCP port');
  return address.port;
}

export function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * A port nothing listens on now, on `host`; something else may take it before it is used. Servers of
 * this process hold theirs (`PortReservation`); a child process, given its port by number, is started
 * again on another when its was taken (`startChildServer`, child.ts).
 */
export async function freePort(host: string): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('No free port');
  return address.port;
}
