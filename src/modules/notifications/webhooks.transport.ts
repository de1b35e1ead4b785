import { createHmac } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

/**
 * Posting a webhook delivery: signed as Stripe signs (`X-Fishlog-Signature: t=<unix seconds>,
 * v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the endpoint's secret>`), with guards against
 * server-side request forgery: https only, no private, loopback, link-local or otherwise
 * non-public address (checked on the address actually connected to, so a name that resolves
 * elsewhere later gains nothing), 10 s for the whole exchange, no redirect followed, at most
 * 1 KB of the response kept. `allowLocal` (FISHLOG_WEBHOOKS_ALLOW_LOCAL, local testing only)
 * lifts the https and address rules.
 */

export const TIMEOUT_MS = 10_000;
export const KEPT_RESPONSE_BYTES = 1024;

export function signature(secret: string, body: string, timestamp: number): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

const blocked = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');

const embedsIpv4 = new net.BlockList();
embedsIpv4.addSubnet('::ffff:0:0', 96, 'ipv6');
embedsIpv4.addSubnet('64:ff9b::', 96, 'ipv6');

/** Whether an address is one a webhook may not reach by default. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return true;
  if (family === 4) return blocked.check(address, 'ipv4');
  // IPv4-mapped and NAT64 addresses (either spelling: ::ffff:10.0.0.1, ::ffff:a00:1) are judged by the IPv4 address they carry.
  if (embedsIpv4.check(address, 'ipv6')) {
    const groups = address.split(':');
    const last = groups.at(-1)!;
    if (last.includes('.')) return isPrivateAddress(last);
    const high = parseInt(groups.at(-2) || '0', 16);
    const low = parseInt(last || '0', 16);
    return isPrivateAddress([high >> 8, high & 255, low >> 8, low & 255].join('.'));
  }
  return blocked.check(address, 'ipv6');
}

/** Why a URL may not be a webhook target (undefined: it may), judged from the URL alone. */
export function refusedUrl(raw: string, allowLocal: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a URL';
  }
  if (url.username || url.password) return 'credentials in the URL are not allowed';
  if (url.protocol !== 'https:' && !(allowLocal && url.protocol === 'http:')) return 'must be an https:// URL';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowLocal && (host === 'localhost' || host.endsWith('.localhost') || (net.isIP(host) !== 0 && isPrivateAddress(host)))) return 'must not point at a private, loopback or link-local address';
  return undefined;
}

/**
 * The resolver of webhook connections: a name that resolves to any non-public address is an
 * error (EWEBHOOKADDRESS), checked on the addresses the connection will use.
 */
export function safeLookup(allowLocal: boolean): net.LookupFunction {
  return ((hostname: string, lookupOptions: dns.LookupOptions, callback: (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void) => {
    dns.lookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = allowLocal ? undefined : addresses.find((entry) => isPrivateAddress(entry.address));
      if (refused) return callback(Object.assign(new Error(`${hostname} resolves to a non-public address (${refused.address})`), { code: 'EWEBHOOKADDRESS' }), []);
      if (lookupOptions.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  }) as unknown as net.LookupFunction;
}

export interface PostResult {
  status: number | null;
  body: string | null;
  error: string | null;
}

/** POSTs `body` with the signature; never throws (the outcome says what happened). */
export function postWebhook(rawUrl: string, secret: string, body: string, options: { allowLocal: boolean; now?: () => number }): Promise<PostResult> {
  const refused = refusedUrl(rawUrl, options.allowLocal);
  if (refused) return Promise.resolve({ status: null, body: null, error: `refused: ${refused}` });
  const url = new URL(rawUrl);
  const timestamp = Math.floor((options.now ?? Date.now)() / 1000);
  // The address connected to is checked after resolution (no DNS rebinding past the check).
  const lookup = safeLookup(options.allowLocal);
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      {
        method: 'POST',
        lookup,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'fishlog-webhooks/1',
          'x-fishlog-signature': signature(secret, body, timestamp),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept < KEPT_RESPONSE_BYTES) {
            chunks.push(chunk.subarray(0, KEPT_RESPONSE_BYTES - kept));
            kept += Math.min(chunk.length, KEPT_RESPONSE_BYTES - kept);
          }
        });
        response.on('end', () => done({ status: response.statusCode ?? null, body: Buffer.concat(chunks).toString('utf8'), error: null }));
        response.on('error', (error) => done({ status: response.statusCode ?? null, body: Buffer.concat(chunks).toString('utf8'), error: error.message }));
      },
    );
    // The whole exchange, not only idle time, is limited (no redirect is ever followed: http.request does not).
    const timer = setTimeout(() => {
      request.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`));
    }, TIMEOUT_MS);
    request.on('error', (error) => done({ status: null, body: null, error: error.message }));
    request.end(body);
  });
}
