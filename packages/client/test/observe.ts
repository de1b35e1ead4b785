import net from 'node:net';

/** What a client sent and was answered, seen at its fetch (the real global fetch does the work). */
export interface Exchange {
  method: string;
  url: URL;
  authorization: string | null;
  idempotencyKey: string | null;
  status: number | 'failed';
}

export function observedFetch(): { exchanges: Exchange[]; fetch: (request: Request) => Promise<Response> } {
  const exchanges: Exchange[] = [];
  return {
    exchanges,
    async fetch(request) {
      const exchange: Exchange = {
        method: request.method,
        url: new URL(request.url),
        authorization: request.headers.get('authorization'),
        idempotencyKey: request.headers.get('idempotency-key'),
        status: 'failed',
      };
      exchanges.push(exchange);
      const response = await globalThis.fetch(request);
      exchange.status = response.status;
      return response;
    },
  };
}

/** The claims of a JWT (unverified: only to tell an id token from an access token). */
export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

/**
 * A TCP proxy in front of the server whose connection breaks once, at the moment the answer to
 * the first request `cutAfter` matches starts to come back: the server did the work, the client
 * never hears of it (a mobile network dropping at the wrong moment).
 */
export async function breakingProxy(target: string, cutAfter: (requestHead: string) => boolean): Promise<{ url: string; cuts: () => number; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  let cuts = 0;
  let armed = true;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    let cutting = false;
    client.on('data', (chunk: Buffer) => {
      if (armed && cutAfter(chunk.toString('latin1'))) {
        armed = false;
        cutting = true;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!cutting) {
        client.write(chunk);
        return;
      }
      cuts++;
      client.destroy();
      upstream.destroy();
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const socket of [client, upstream]) socket.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    cuts: () => cuts,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
