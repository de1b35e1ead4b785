/**
 * What the request log at info costs the service (bench byid: its goal; bench me: a detail): the
 * closing line every request writes, measured in a loop and under load.
 */
import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { bufferedStdout, loggerOptions, RequestLogger } from '../src/core/observability/request-logger.js';
import { load, round, type BenchServer } from './lib.js';

/**
 * Microseconds per request of the request log at info, as the service writes it (its logger
 * options, a RequestLogger per request, the closing line, its destination in 4 KiB blocks; here
 * to /dev/null): the median of 5 rounds of 100,000.
 */
export function logLineMicros(): number {
  const output = bufferedStdout(50, fs.openSync('/dev/null', 'w'));
  const logger = pino(loggerOptions('info'), output.stream) as unknown as FastifyBaseLogger;
  const raw = { headers: {} } as IncomingMessage;
  const rounds: number[] = [];
  for (let round = 0; round < 6; round++) {
    const started = performance.now();
    for (let i = 0; i < 100_000; i++) new RequestLogger(logger, { requestId: `req-${i}` }, {}, raw).completed('GET /api/userprofile/me 200 1.2 ms');
    if (round > 0) rounds.push(((performance.now() - started) * 1000) / 100_000);
  }
  output.close();
  return rounds.sort((a, b) => a - b)[2]!;
}

/**
 * What the request log at info costs the service: the same process alternately at info and at
 * warn (no request lines; the level is changed at run time), 1 s of the load of `path` at a time,
 * twenty windows each in the order info, warn, warn, info…; the service's CPU per request at info
 * over the same at warn. Alternating short
 * windows in one process cancels the drift of a shared machine, which moved two separate 6 s
 * runs by ±15%. (A V8 profile was tried first: it put 11–16% of the samples in the closing line,
 * while switching the line off changed the CPU per request by 0–9%: samples landing right after
 * the response's socket write are charged to the hook that runs next.)
 */
export async function requestLogCost(server: BenchServer, path: string, headers: Record<string, string>) {
  const url = `http://127.0.0.1:${server.servicePort}${path}`;
  const totals = { info: { cpuMs: 0, requests: 0 }, warn: { cpuMs: 0, requests: 0 } };
  try {
    for (let window = 0; window < 40; window++) {
      // info, warn, warn, info, …: a drift in time weighs on both levels alike.
      const level = [0, 3].includes(window % 4) ? 'info' : 'warn';
      await server.setLogLevel(level);
      const run = await load(server, url, { headers, seconds: 1 });
      totals[level].cpuMs += run.cpuMsPerRequest.service * run.requests;
      totals[level].requests += run.requests;
    }
  } finally {
    await server.setLogLevel('info');
  }
  const perRequest = (t: { cpuMs: number; requests: number }) => t.cpuMs / Math.max(1, t.requests);
  return {
    percent: round((perRequest(totals.info) / perRequest(totals.warn) - 1) * 100),
    cpuMsPerRequest: { info: round(perRequest(totals.info)), warn: round(perRequest(totals.warn)) },
    requests: { info: totals.info.requests, warn: totals.warn.requests },
  };
}
