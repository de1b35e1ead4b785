import type { IncomingMessage } from 'node:http';
import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { RequestLogger } from './request-logger.js';

function capture(level = 'info') {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level }, stream) as unknown as FastifyBaseLogger;
  return { lines, logger, child: vi.spyOn(logger, 'child') };
}

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const raw = () => ({ headers: { traceparent: `00-${TRACE}-00f067aa0ba902b7-01` } }) as unknown as IncomingMessage;

describe('RequestLogger', () => {
  it('writes the closing line with the request and trace ids without making a child logger', () => {
    const { lines, logger, child } = capture();
    new RequestLogger(logger, { requestId: 'r-1' }, {}, raw()).completed('GET /x 200 1.0 ms');
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([expect.objectContaining({ level: 30, requestId: 'r-1', traceId: TRACE, msg: 'GET /x 200 1.0 ms' })]);
  });

  it('makes the child on the first enabled line, once, and its lines carry the same ids', () => {
    const { lines, logger, child } = capture();
    const log = new RequestLogger(logger, { requestId: 'r-2' }, {}, raw());
    log.debug('not enabled at info: no child');
    expect(child).not.toHaveBeenCalled();
    log.warn({ detail: 1 }, 'first');
    log.error('second');
    log.completed('GET /y 500 2.0 ms');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines.map((l) => [l.msg, l.requestId, l.traceId])).toEqual([
      ['first', 'r-2', TRACE],
      ['second', 'r-2', TRACE],
      ['GET /y 500 2.0 ms', 'r-2', TRACE],
    ]);
    expect(lines[0]).toMatchObject({ detail: 1, level: 40 });
  });

  it('follows the level of its logger', () => {
    const { lines, logger } = capture('warn');
    const log = new RequestLogger(logger, { requestId: 'r-3' }, {}, raw());
    expect(log.isLevelEnabled('info')).toBe(false);
    expect(log.isLevelEnabled('warn')).toBe(true);
    expect(log.level).toBe('warn');
    log.completed('GET /z 200 1.0 ms');
    log.info('quiet');
    expect(lines).toEqual([]);
  });
});

/** Runs `script` (an ES module importing this folder's request-logger.ts as `module`) in a child; its exit code and JSON lines. */
async function linesOfChild(script: (module: string) => string): Promise<{ code: number | null; lines: Record<string, unknown>[] }> {
  const { spawn } = await import('node:child_process');
  const module = JSON.stringify(new URL('./request-logger.ts', import.meta.url).pathname);
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(module)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += String(chunk)));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, lines: output.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('bufferedStdout', () => {
  it('shows a quiet process its lines without waiting for a full block or the exit', async () => {
    const { spawn } = await import('node:child_process');
    const module = new URL('./request-logger.ts', import.meta.url).pathname;
    // The child writes one line, then stays alive for 5 s before exiting (which would flush too).
    const script = `const { bufferedStdout } = await import(${JSON.stringify(module)}); const out = bufferedStdout(); out.stream.write('{"msg":"first"}\\n'); setTimeout(() => out.close(), 5000);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const started = Date.now();
    const arrivedAfter = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        if (String(chunk).includes('"first"')) resolve(Date.now() - started);
      });
      child.on('exit', (code) => reject(new Error(`exited (${code}) before the line arrived`)));
    });
    child.kill();
    // Well before the child's own exit at 5 s (generous for a loaded machine; the timer is 50 ms).
    expect(arrivedAfter).toBeLessThan(4000);
  });

  it('loses no line and keeps their order when the process exits with lines still gathered', async () => {
    // 1,000 lines (several blocks, the last one partial), then an exit in the same turn of the loop.
    const { code, lines } = await linesOfChild(
      (module) =>
        `const { bufferedStdout } = await import(${module}); const out = bufferedStdout(); for (let i = 0; i < 1000; i++) out.stream.write('{"n":' + i + ',"msg":"${'x'.repeat(60)}"}\\n'); process.exit(0);`,
    );
    expect(code).toBe(0);
    expect(lines.map((line) => line.n)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
  });

  it('writes the closing lines in the order of all the calls, and none is lost at exit', async () => {
    // 300 closing lines (several blocks), a warning through pino after the 150th, then an exit in the same turn.
    const { code, lines } = await linesOfChild((module) =>
      [
        `const { bufferedStdout, loggerOptions, RequestLogger } = await import(${module});`,
        `const pino = (await import('pino')).default;`,
        `const out = bufferedStdout();`,
        `const logger = pino(loggerOptions('info'), out.stream);`,
        `for (let i = 0; i < 300; i++) {`,
        `  new RequestLogger(logger, { requestId: 'r-' + i }, {}, { headers: {} }).completed('GET /x?n=' + i + '&q="a" 200 1.0 ms');`,
        `  if (i === 149) logger.warn({ n: i }, 'between');`,
        `}`,
        `process.exit(0);`,
      ].join('\n'),
    );
    expect(code).toBe(0);
    expect(lines).toHaveLength(301);
    expect(lines[150]).toMatchObject({ level: 40, msg: 'between', n: 149 });
    const closing = [...lines.slice(0, 150), ...lines.slice(151)];
    expect(closing.map((l) => l.msg)).toEqual(Array.from({ length: 300 }, (_, i) => `GET /x?n=${i}&q="a" 200 1.0 ms`));
    expect(closing.every((l, i) => l.level === 30 && l.requestId === `r-${i}` && typeof l.traceId === 'string' && (l.time as number) > 0)).toBe(true);
  });
});
