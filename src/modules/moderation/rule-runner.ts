import { Worker } from 'node:worker_threads';

/**
 * Runs the regular expressions of moderation rules off the main thread, with a time limit, on
 * bounded input. A pattern that backtracks for too long cannot stall the server: after
 * `timeoutMs` the worker is terminated (and a fresh one started for the next job) and the
 * caller learns which rule was running, so the content is held for review instead.
 */

/** Longest text a rule ever sees; posts and comments are shorter by schema. */
export const MAX_RULE_INPUT = 10_000;
export const DEFAULT_RULE_TIMEOUT_MS = 250;
/**
 * How long a (fresh) worker may take to start a job. Starting a thread takes tens of
 * milliseconds, and seconds on a loaded machine: that time must not count against the rules,
 * or sound content would be held for review whenever the previous worker had to be replaced.
 */
export const WORKER_START_TIMEOUT_MS = 10_000;

export interface RegexJobRule {
  id: string;
  source: string;
  flags: string;
}

export interface RegexJobResult {
  matched: string[];
  /** The rule that was running when the time limit hit (its earlier matches are kept). */
  timedOut: string | undefined;
}

// Plain JavaScript, run with `eval: true` so it works from both the TypeScript sources and the build.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const cache = new Map();
function compile(source, flags) {
  const key = flags + '/' + source;
  let regex = cache.get(key);
  if (!regex) {
    regex = new RegExp(source, flags);
    if (cache.size >= 1000) cache.clear();
    cache.set(key, regex);
  }
  return regex;
}
parentPort.on('message', (job) => {
  for (const rule of job.rules) {
    parentPort.postMessage({ job: job.id, running: rule.id });
    let regex;
    try { regex = compile(rule.source, rule.flags); } catch { continue; }
    regex.lastIndex = 0;
    if (regex.test(job.text)) parentPort.postMessage({ job: job.id, match: rule.id });
  }
  parentPort.postMessage({ job: job.id, done: true });
});
`;

interface Job {
  id: number;
  rules: RegexJobRule[];
  text: string;
  matched: string[];
  running: string | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  resolve(result: RegexJobResult): void;
}

type WorkerMessage = { job: number; running?: string; match?: string; done?: boolean };

export class RegexRunner {
  private worker: Worker | undefined;
  private readonly queue: Job[] = [];
  private current: Job | undefined;
  private nextId = 1;

  constructor(private readonly timeoutMs = DEFAULT_RULE_TIMEOUT_MS) {}

  /** Tests `text` (cut to MAX_RULE_INPUT) against each rule; resolves within the time limit once the worker has started the job. */
  run(rules: RegexJobRule[], text: string): Promise<RegexJobResult> {
    if (rules.length === 0) return Promise.resolve({ matched: [], timedOut: undefined });
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, rules, text: text.slice(0, MAX_RULE_INPUT), matched: [], running: undefined, timer: undefined, resolve });
      this.pump();
    });
  }

  /** Stops the worker (a later run starts a new one). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref();
    worker.on('message', (message: WorkerMessage) => this.onMessage(worker, message));
    worker.on('error', () => this.onWorkerGone(worker));
    worker.on('exit', () => this.onWorkerGone(worker));
    this.worker = worker;
    return worker;
  }

  private pump(): void {
    if (this.current) return;
    const job = this.queue.shift();
    if (!job) return;
    this.current = job;
    const worker = this.ensureWorker();
    job.timer = setTimeout(() => this.onTimeout(job), Math.max(WORKER_START_TIMEOUT_MS, this.timeoutMs));
    worker.postMessage({ id: job.id, rules: job.rules, text: job.text });
  }

  private finish(job: Job, timedOut: string | undefined): void {
    if (this.current !== job) return;
    clearTimeout(job.timer);
    this.current = undefined;
    job.resolve({ matched: job.matched, timedOut });
    this.pump();
  }

  private onMessage(worker: Worker, message: WorkerMessage): void {
    const job = this.current;
    if (worker !== this.worker || !job || message.job !== job.id) return;
    if (message.running !== undefined) {
      // The rules' time limit runs from the moment the worker starts on them.
      if (job.running === undefined) {
        clearTimeout(job.timer);
        job.timer = setTimeout(() => this.onTimeout(job), this.timeoutMs);
      }
      job.running = message.running;
    }
    if (message.match !== undefined) job.matched.push(message.match);
    if (message.done) this.finish(job, undefined);
  }

  private onTimeout(job: Job): void {
    if (this.current !== job) return;
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
    this.finish(job, job.running ?? job.rules[0]!.id);
  }

  private onWorkerGone(worker: Worker): void {
    if (worker !== this.worker) return;
    this.worker = undefined;
    const job = this.current;
    if (job) this.finish(job, job.running ?? job.rules[0]!.id);
  }
}

/** The process's runner (one worker thread, started on first use). */
export const regexRunner = new RegexRunner();
