import net from 'node:net';

/**
 * Tests talk to loopback only: any connection to another host fails the test that made it.
 * (Unix sockets and loopback addresses pass.)
 */
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost|::ffff:127\.\d+\.\d+\.\d+)$/i;

/** Marks the guard, so a worker that runs many files in one module graph (isolate: false) wraps connect once. */
const GUARDED = Symbol.for('fishlog.test.no-network');

const original = net.Socket.prototype.connect;
type ConnectArgs = Parameters<typeof original>;

function target(args: unknown[]): { host?: string; path?: string } {
  const [first, second] = args;
  if (Array.isArray(first)) return target(first as unknown[]);
  if (typeof first === 'object' && first !== null) {
    const options = first as { host?: string; path?: string };
    return { host: options.host ?? 'localhost', ...(options.path ? { path: options.path } : {}) };
  }
  if (typeof first === 'string' && !/^\d+$/.test(first)) return { path: first };
  return { host: typeof second === 'string' ? second : 'localhost' };
}

function guardedConnect(this: net.Socket, ...args: ConnectArgs) {
  const { host, path } = target(args);
  if (!path && host && !LOOPBACK.test(host.replace(/^\[|\]$/g, ''))) {
    throw new Error(`network access outside loopback is not allowed in tests (tried ${host})`);
  }
  return original.apply(this, args);
}

if (!(GUARDED in original)) {
  Object.defineProperty(guardedConnect, GUARDED, { value: true });
  net.Socket.prototype.connect = guardedConnect as typeof original;
}
