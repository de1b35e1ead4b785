import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { RE2 } from 're2-wasm';

/**
 * The admins' regular expressions run on RE2 (`re2-wasm`: Google's RE2 compiled to WebAssembly),
 * which matches in time linear in the text for every pattern: it never backtracks, so rules run
 * here, in the request, with no time limit. Its syntax: https://github.com/google/re2/wiki/Syntax
 * (no backreferences, no lookahead or lookbehind). Rules match ignoring case, in Unicode.
 *
 * Two traits of re2-wasm shape this file. A compiled expression lives in the WebAssembly heap until
 * it is deleted (no garbage collection): compiled expressions are kept in a bounded cache and freed
 * when they leave it. And that heap is fixed at 16 MiB, the module aborting when it is full (a large
 * Unicode class repeated hundreds of times; the matching caches of many rules after a hostile
 * text): then a fresh copy of the module (a new heap, an empty cache) is loaded and the work is
 * done again once; if it fails again, `EngineExhausted` is thrown.
 */

const require = createRequire(import.meta.url);

/** The same flags for every rule: ignoring case, Unicode (re2-wasm only has Unicode mode). */
const FLAGS = 'iu';
const MAX_CACHED = 256;

type Re2Class = typeof RE2;

export class EngineExhausted extends Error {}

/** A fresh copy of re2-wasm with its own heap (Node's module cache dropped for it). */
function loadEngine(): Re2Class {
  const packageDir = dirname(require.resolve('re2-wasm/package.json'));
  for (const file of Object.keys(require.cache)) if (file.startsWith(packageDir)) delete require.cache[file];
  return (require('re2-wasm') as { RE2: Re2Class }).RE2;
}

/**
 * Loaded with the first pattern compiled (at start only when active regex rules exist, by their
 * check; else with the first rule saved): loading the module compiles its 1.2 MB of WebAssembly.
 */
let engine: Re2Class | undefined;
/** Source → its compiled expression, or RE2's error; least recently used first. */
let cache = new Map<string, RE2 | SyntaxError>();

function free(compiled: RE2 | SyntaxError): void {
  if (!(compiled instanceof SyntaxError)) (compiled as unknown as { wrapper: { delete(): void } }).wrapper.delete();
}

function compiled(source: string): RE2 | SyntaxError {
  let entry = cache.get(source);
  if (entry) {
    cache.delete(source);
  } else {
    try {
      entry = new (engine ??= loadEngine())(source, FLAGS);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      entry = error;
    }
    if (cache.size >= MAX_CACHED) {
      const [oldest, value] = cache.entries().next().value!;
      cache.delete(oldest);
      free(value);
    }
  }
  cache.set(source, entry);
  return entry;
}

/** Runs `work` on the engine; after the module aborted, once more on a fresh one. */
function withEngine<T>(work: () => T): T {
  for (let attempt = 0; ; attempt++) {
    try {
      return work();
    } catch (error) {
      if (error instanceof SyntaxError) throw error;
      engine = loadEngine();
      cache = new Map();
      if (attempt > 0) throw new EngineExhausted(`RE2 ran out of its 16 MiB heap: ${(error as Error).message.slice(0, 200)}`);
    }
  }
}

/** What to say of a pattern RE2 refuses, from its error message. */
function explain(error: SyntaxError): string {
  const message = error.message.replace(/^Invalid regular expression: \/.*\/\w*: /s, '');
  if (/^invalid escape sequence: \\[1-9k]/.test(message)) {
    return `uses a backreference (${message.slice(25)}), which RE2 does not support: write the repeated text out, or use a keyword rule`;
  }
  if (/^invalid perl operator: \(\?[=!<]/.test(message)) {
    return `uses a lookahead or lookbehind (${message.slice(23)}…), which RE2 does not support: match the surrounding text itself (e.g. spam.{0,40}offer), or write a second rule`;
  }
  return `is not valid RE2 syntax (https://github.com/google/re2/wiki/Syntax): ${message}`;
}

/** Undefined when RE2 compiles the pattern, else what is wrong with it and what to write instead. */
export function patternProblem(pattern: string): string | undefined {
  try {
    const result = withEngine(() => compiled(pattern));
    return result instanceof SyntaxError ? explain(result) : undefined;
  } catch (error) {
    if (!(error instanceof EngineExhausted)) throw error;
    return 'needs more memory than RE2 has for a rule: bound or shorten its repeats (e.g. \\p{L}{1,20} rather than \\p{L}{1,1000})';
  }
}

export interface RegexRule {
  id: string;
  pattern: string;
}

/**
 * The rules whose pattern matches `text` (ignoring those RE2 cannot compile). All of them are tried
 * at once first, as one alternation (one pass over the text); only when it matches are they tried
 * one by one. Throws EngineExhausted when even a fresh heap was not enough.
 */
export function matchingRegexRules<R extends RegexRule>(rules: R[], text: string): R[] {
  if (rules.length === 0) return [];
  return withEngine(() => {
    const valid = rules.filter((rule) => !(compiled(rule.pattern) instanceof SyntaxError));
    if (valid.length === 0) return [];
    // A combination RE2 refuses (two groups of the same name, too large) leaves the rules one by one.
    const any = valid.length === 1 ? undefined : compiled(valid.map((rule) => `(?:${rule.pattern})`).join('|'));
    if (any && !(any instanceof SyntaxError) && !any.test(text)) return [];
    return valid.filter((rule) => (compiled(rule.pattern) as RE2).test(text));
  });
}
