import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { traceOf } from './tracing.js';

/**
 * Request logging that costs little when nothing is logged.
 *
 * Fastify gives every request a child logger carrying its request id (and here its trace id).
 * Making a pino child serializes its bindings and builds a logger object: on a small request that
 * was a few percent of the CPU, for a logger most requests never use. `RequestLogger` makes the
 * child on the first line the request actually logs at an enabled level; the one line every
 * request writes at info (`completed`) goes through the parent with the same fields, so it reads
 * exactly like a child's line.
 */

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Bindings = Record<string, unknown>;

function enabled(logger: FastifyBaseLogger, level: Level): boolean {
  const check = (logger as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled;
  // A logger without isLevelEnabled (Fastify's `logger: false`) logs nothing: a call is cheap anyway.
  return check === undefined || check.call(logger, level);
}

/** How a plain logger's lines start: its numeric info level and its bindings (pid, hostname) as JSON. */
interface LineFormat {
  level: number;
  chindings: string;
}

/**
 * A destination that can take a request's closing line as its parts and write it later
 * (`bufferedStdout`): formatted with the others of its batch, in order with every other line.
 */
interface DeferringStream {
  write(line: string): unknown;
  writeLater?(format: LineFormat, time: number, bindings: Bindings, message: string): void;
}

/** Loggers whose info lines `completed` may write itself (see `writesPlainLines`). */
const plainLoggers = new WeakMap<object, LineFormat & { stream: DeferringStream }>();

/** A closing line, the same bytes pino writes for `logger.info(bindings, message)` (see `writesPlainLines`). */
function formatLine(format: LineFormat, time: number, bindings: Bindings, message: string): string {
  let line = `{"level":${format.level},"time":${time}${format.chindings}`;
  for (const key in bindings) line += `,${JSON.stringify(key)}:${JSON.stringify(bindings[key])}`;
  return `${line},"msg":${JSON.stringify(message)}}\n`;
}

/**
 * Lets `completed` write the closing line of requests logged through `logger` as a string of its
 * own, the same bytes pino writes (`{"level":30,"time":…,"pid":…,"hostname":…,<bindings>,"msg":…}`)
 * without pino's generic object path: in a profile of the service under load that path was most
 * of the request log's cost. Only for a pino logger made with pino's default line format (the
 * app's own: `loggerOptions`, no formatters, mixin or hooks); any other keeps pino's path.
 */
let defaultLogger: Record<symbol, unknown> | undefined;

function sameFormatters(a: unknown, b: unknown): boolean {
  const x = a as Record<string, unknown> | undefined;
  const y = b as Record<string, unknown> | undefined;
  return !!x && !!y && x.level === y.level && x.bindings === y.bindings && x.log === y.log;
}

export function writesPlainLines(logger: FastifyBaseLogger): void {
  const symbols = pino.symbols as unknown as Record<string, symbol>;
  const held = logger as unknown as Record<symbol, unknown>;
  const stream = held[symbols.streamSym!] as { write?: (line: string) => unknown } | undefined;
  const chindings = held[symbols.chindingsSym!];
  const level = (logger as unknown as { levels?: { values?: Record<string, number> } }).levels?.values?.info;
  const plain =
    typeof stream?.write === 'function' &&
    typeof chindings === 'string' &&
    typeof level === 'number' &&
    held[symbols.messageKeySym!] === 'msg' &&
    held[symbols.timeSym!] === pino.stdTimeFunctions.epochTime &&
    held[symbols.mixinSym!] === undefined &&
    held[symbols.nestedKeySym!] == null &&
    held[symbols.msgPrefixSym!] === undefined &&
    sameFormatters(held[symbols.formattersSym!], (defaultLogger ??= pino({ enabled: false }) as unknown as Record<symbol, unknown>)[symbols.formattersSym!]) &&
    (held[symbols.hooksSym!] as { streamWrite?: unknown } | undefined)?.streamWrite === undefined;
  if (plain) plainLoggers.set(logger, { level, chindings, stream: stream as DeferringStream });
}

export class RequestLogger {
  private made: FastifyBaseLogger | undefined;

  /** `bindings` is the request's own object (Fastify makes one per request): the trace id is added to it. */
  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: object,
    raw: IncomingMessage,
  ) {
    bindings.traceId = traceOf(raw).traceId;
  }

  /** The real child logger, made on first use. */
  private get logger(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  isLevelEnabled(level: Level): boolean {
    return enabled(this.made ?? this.parent, level);
  }

  child(bindings: Bindings, options?: object): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }

  /** The request's closing line at info, with its request and trace ids, without making a child. */
  completed(message: string): void {
    if (this.made) return this.made.info(message);
    if (!enabled(this.parent, 'info')) return;
    const plain = plainLoggers.get(this.parent);
    if (!plain) return this.parent.info(this.bindings, message);
    if (plain.stream.writeLater) plain.stream.writeLater(plain, Date.now(), this.bindings, message);
    else plain.stream.write(formatLine(plain, Date.now(), this.bindings, message));
  }

  private write(level: Level, args: unknown[]): void {
    if (!this.made && !enabled(this.parent, level)) return;
    (this.logger[level] as (...a: unknown[]) => void)(...args);
  }

  // Prototype methods (not per-instance closures: nothing is allocated per request).
  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}
}

/** The service's logger options at a level (authorization and cookies never reach a log line). */
export function loggerOptions(level: string) {
  return { level, redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' } };
}

/** A block of the log destination, in characters (4 KiB for ASCII lines). */
const BLOCK_CHARS = 4096;

/** Closing lines taken as their parts (`writeLater`) are formatted this many at a time at most. */
const DEFERRED_LINES = 128;

/**
 * The process's log destination: standard output written in blocks of about 4 KiB (one write a
 * block, not one a line). Lines are gathered here, in one string, and handed to the destination
 * (pino's sonic-boom) a block at a time: sonic-boom measures the UTF-8 length of its whole pending
 * buffer on every write, which, a line at a time into a 4 KiB buffer, cost ~2.5 µs a line (0.5 µs
 * a line gathered here, in a loop on this machine). A line never waits more than `flushMs` (the
 * first line after a block starts the clock), so a quiet server's lines still show up at once for
 * a reader; under load the blocks fill first. What is pending is written synchronously on `close`
 * and when the process exits.
 *
 * A request's closing line comes as its parts (`writeLater`: time, bindings, message; nothing
 * is built for it during the request) and is formatted with the others of its batch: before any
 * other line is written (the order of the lines is the order of the calls), when 128 wait, and
 * when the clock or the exit writes what is pending. On the `/me` load, formatting a batch at a
 * time cost the service −4.0% and +0.9% CPU against one line per request in the two orders of
 * `bench/ab.ts` (about −1.5%, within one run's noise; docs/scaling.md, twelfth round): no string
 * is made and dropped during the request.
 */
export function bufferedStdout(
  flushMs = 50,
  fd = 1 /* standard output; another descriptor for the bench */,
): { stream: pino.DestinationStream & Required<DeferringStream> & { flush(): void }; close: () => void } {
  // A block handed over is written at once, synchronously (pino's default for a destination): no
  // write is ever in flight when the process exits, so none is lost then; a shorter rest waits in
  // the destination for `flush` (the timer) or `flushSync` (close, exit).
  const destination = pino.destination({ dest: fd, minLength: BLOCK_CHARS, sync: true });
  let pending = '';
  // Closing lines not formatted yet, flat: format, time, bindings, message, format, … (no object a line).
  let deferred: unknown[] = [];
  let timer: NodeJS.Timeout | undefined;
  const handOver = () => {
    if (pending.length > 0) {
      destination.write(pending);
      pending = '';
    }
  };
  const append = (line: string) => {
    pending += line;
    if (pending.length >= BLOCK_CHARS) handOver();
  };
  const format = () => {
    if (deferred.length === 0) return;
    const parts = deferred;
    deferred = [];
    for (let i = 0; i < parts.length; i += 4) append(formatLine(parts[i] as LineFormat, parts[i + 1] as number, parts[i + 2] as Bindings, parts[i + 3] as string));
  };
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    format();
    handOver();
    destination.flush();
  };
  const startClock = () => {
    if (!timer) (timer = setTimeout(flush, flushMs)).unref();
  };
  const writeAll = () => {
    clearTimeout(timer);
    timer = undefined;
    format();
    handOver();
    try {
      destination.flushSync();
    } catch {
      // Nothing written yet, or the stream is not open yet: nothing to lose.
    }
  };
  process.on('exit', writeAll);
  return {
    stream: {
      write(line: string) {
        format();
        append(line);
        if (pending.length > 0) startClock();
      },
      writeLater(lineFormat: LineFormat, time: number, bindings: Bindings, message: string) {
        deferred.push(lineFormat, time, bindings, message);
        if (deferred.length >= DEFERRED_LINES * 4) format();
        startClock();
      },
      flush,
    },
    close: () => {
      process.removeListener('exit', writeAll);
      writeAll();
    },
  };
}
