/**
 * Static safety check of the regular expressions admins put in moderation rules, before they
 * are stored. JavaScript's engine backtracks, so some shapes take exponential (or high
 * polynomial) time on a short hostile text. Refused here:
 * - backreferences (`\1`, `\k<name>`): no linear-time way to match them;
 * - a repeated group holding another variable quantifier (`(a+)+`, `(a?)*`, `(\w{1,3})+`);
 * - a repeated group whose alternatives can start with the same character or be empty
 *   (`(a|aa)+`, `(\w|\d)*`, `(a|)+`), or whose body can match nothing;
 * - two unbounded repeats that can match the same characters next to each other (`\s*\s*`,
 *   `\d+\w*`, `.*,?.*`);
 * - more than one unbounded repeat (`*`, `+`, `{n,}`) anywhere in the pattern. Separated by
 *   literals (`.*a.*a.*a.*b`, `free.*money.*click.*now`) they pass the checks above yet each
 *   one multiplies the backtracking: seconds on 4 KB, and the one rule-runner worker makes
 *   every other post wait. Telling the harmless ones apart statically is not reliable, so one
 *   is the limit; admins bound the others (`.{0,40}`) or use keyword rules.
 * What passes still runs with a time limit and on bounded input (see rule-runner.ts), and a
 * rule that keeps running out of time is deactivated (moderation.service.ts), because bounded
 * repeats can still add up (`.{0,100}a.{0,100}a.{0,100}b`).
 */

/** How many unbounded repeats a pattern may hold. */
export const MAX_UNBOUNDED_REPEATS = 1;

export const MAX_PATTERN_LENGTH = 500;

interface Quantifier {
  min: number;
  max: number;
}

interface Atom {
  type: 'atom';
  /** Source of a one-character expression; null for zero-width atoms (anchors, \b). */
  source: string | null;
  quant: Quantifier | undefined;
}

interface Group {
  type: 'group';
  alternatives: Node[][];
  lookaround: boolean;
  quant: Quantifier | undefined;
}

type Node = Atom | Group;

class Unsafe extends Error {}

/** Characters the overlap test tries: printable ASCII, white space and a few non-ASCII letters. */
const SAMPLES: string[] = [
  ...Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)),
  '\n',
  '\t',
  '\u00a0',
  'é',
  'ß',
  'Ж',
  '中',
  '😀',
];

function parse(pattern: string): Node[][] {
  let i = 0;

  function quantifier(): Quantifier | undefined {
    const c = pattern[i];
    let quant: Quantifier | undefined;
    if (c === '*') quant = { min: 0, max: Infinity };
    else if (c === '+') quant = { min: 1, max: Infinity };
    else if (c === '?') quant = { min: 0, max: 1 };
    else if (c === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
      if (!match) return undefined;
      const min = Number(match[1]);
      const max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
      i += match[0].length - 1;
      quant = { min, max };
    }
    if (!quant) return undefined;
    i++;
    if (pattern[i] === '?') i++; // lazy: same shapes, same cost
    return quant;
  }

  function escape(): Atom {
    const c = pattern[i + 1] ?? '';
    if (/[1-9]/.test(c) || c === 'k') throw new Unsafe('backreferences (\\1, \\k<name>) are not allowed: they can make matching take exponential time');
    if (c === 'b' || c === 'B') {
      i += 2;
      return { type: 'atom', source: null, quant: undefined };
    }
    let length = 2;
    if ((c === 'p' || c === 'P') && pattern[i + 2] === '{') length = pattern.indexOf('}', i) - i + 1;
    else if (c === 'u' && pattern[i + 2] === '{') length = pattern.indexOf('}', i) - i + 1;
    else if (c === 'u') length = 6;
    else if (c === 'x') length = 4;
    else if (c === 'c') length = 3;
    const source = pattern.slice(i, i + length);
    i += length;
    return { type: 'atom', source, quant: undefined };
  }

  function characterClass(): Atom {
    const start = i;
    i++;
    if (pattern[i] === '^') i++;
    if (pattern[i] === ']') i++;
    while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
    i++;
    return { type: 'atom', source: pattern.slice(start, i), quant: undefined };
  }

  function sequence(inGroup: boolean): Node[][] {
    const alternatives: Node[][] = [[]];
    while (i < pattern.length) {
      const c = pattern[i]!;
      if (c === ')') {
        if (!inGroup) throw new Unsafe('unbalanced parenthesis');
        return alternatives;
      }
      if (c === '|') {
        alternatives.push([]);
        i++;
        continue;
      }
      let node: Node;
      if (c === '(') {
        let lookaround = false;
        if (pattern.startsWith('(?:', i)) i += 3;
        else if (pattern.startsWith('(?=', i) || pattern.startsWith('(?!', i)) {
          lookaround = true;
          i += 3;
        } else if (pattern.startsWith('(?<=', i) || pattern.startsWith('(?<!', i)) {
          lookaround = true;
          i += 4;
        } else if (pattern.startsWith('(?<', i)) i = pattern.indexOf('>', i) + 1;
        else i++;
        const inner = sequence(true);
        i++; // ')'
        node = { type: 'group', alternatives: inner, lookaround, quant: undefined };
      } else if (c === '[') node = characterClass();
      else if (c === '\\') node = escape();
      else if (c === '^' || c === '$') {
        i++;
        node = { type: 'atom', source: null, quant: undefined };
      } else if (c === '.') {
        i++;
        node = { type: 'atom', source: '[^\\n\\r\\u2028\\u2029]', quant: undefined };
      } else {
        const codePoint = pattern.codePointAt(i)!;
        const char = String.fromCodePoint(codePoint);
        i += char.length;
        node = { type: 'atom', source: char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), quant: undefined };
      }
      node.quant = quantifier();
      alternatives[alternatives.length - 1]!.push(node);
    }
    if (inGroup) throw new Unsafe('unbalanced parenthesis');
    return alternatives;
  }

  return sequence(false);
}

const setCache = new Map<string, Set<number>>();

/** The sample characters a one-character expression matches (case-insensitively, like the rules). */
function sampleSet(source: string): Set<number> {
  let set = setCache.get(source);
  if (set) return set;
  set = new Set();
  let regex: RegExp;
  try {
    regex = new RegExp(`^(?:${source})$`, 'iu');
  } catch {
    regex = /[^]/u; // unknown: assume it matches anything
  }
  SAMPLES.forEach((sample, index) => {
    if (regex.test(sample)) set!.add(index);
  });
  if (setCache.size > 1000) setCache.clear();
  setCache.set(source, set);
  return set;
}

function canBeEmpty(node: Node): boolean {
  if (node.quant && node.quant.min === 0) return true;
  if (node.type === 'atom') return node.source === null;
  if (node.lookaround) return true;
  return node.alternatives.some((alt) => alt.every(canBeEmpty));
}

function union(a: Set<number>, b: Set<number>): Set<number> {
  return new Set([...a, ...b]);
}

function overlaps(a: Set<number>, b: Set<number>): boolean {
  for (const x of a) if (b.has(x)) return true;
  return false;
}

/** Characters a node's match can start with. */
function firstSet(node: Node): Set<number> {
  if (node.type === 'atom') return node.source === null ? new Set() : sampleSet(node.source);
  if (node.lookaround) return new Set();
  return node.alternatives.reduce((acc, alt) => union(acc, sequenceFirstSet(alt)), new Set<number>());
}

function sequenceFirstSet(nodes: Node[]): Set<number> {
  let set = new Set<number>();
  for (const node of nodes) {
    set = union(set, firstSet(node));
    if (!canBeEmpty(node)) break;
  }
  return set;
}

/** Characters any part of a node can match. */
function anySet(node: Node): Set<number> {
  if (node.type === 'atom') return node.source === null ? new Set() : sampleSet(node.source);
  if (node.lookaround) return new Set();
  return node.alternatives.flat().reduce((acc, n) => union(acc, anySet(n)), new Set<number>());
}

function isVariable(q: Quantifier | undefined): boolean {
  return q !== undefined && q.max > q.min;
}

function containsVariable(nodes: Node[]): boolean {
  return nodes.some((n) => isVariable(n.quant) || (n.type === 'group' && n.alternatives.some(containsVariable)));
}

function checkRepeatedGroup(group: Group): void {
  if (!group.quant || group.quant.max <= 1) return;
  if (group.alternatives.some(containsVariable)) {
    throw new Unsafe('a repeated group contains another variable quantifier (like (a+)+): nested repetition can take exponential time; repeat the inner part once, e.g. (a+)+ → a+');
  }
  if (group.alternatives.some((alt) => alt.every(canBeEmpty))) {
    throw new Unsafe('a repeated group can match the empty string: remove the empty alternative or the optional parts inside it');
  }
  const firsts = group.alternatives.map(sequenceFirstSet);
  for (let a = 0; a < firsts.length; a++) {
    for (let b = a + 1; b < firsts.length; b++) {
      if (overlaps(firsts[a]!, firsts[b]!)) {
        throw new Unsafe('alternatives inside a repeated group can start with the same character (like (a|aa)+): this can take exponential time; make the alternatives start differently');
      }
    }
  }
}

/** Two unbounded repeats over shared characters with nothing mandatory between them. */
function checkAdjacentRepeats(nodes: Node[]): void {
  let pending: Set<number> | undefined;
  for (const node of nodes) {
    const unbounded = node.quant !== undefined && node.quant.max === Infinity;
    if (unbounded) {
      const set = anySet(node);
      if (pending && overlaps(pending, set)) {
        throw new Unsafe('two unbounded repeats next to each other can match the same characters (like \\s*\\s* or .*.*): merge them into one');
      }
      pending = pending ? union(pending, set) : set;
    } else if (!canBeEmpty(node)) {
      pending = undefined;
    }
  }
}

/** Unbounded repeats (`*`, `+`, `{n,}`) in the nodes and everything inside them. */
function countUnbounded(nodes: Node[]): number {
  let count = 0;
  for (const node of nodes) {
    if (node.quant?.max === Infinity) count++;
    if (node.type === 'group') for (const alt of node.alternatives) count += countUnbounded(alt);
  }
  return count;
}

function checkUnboundedCount(alternatives: Node[][]): void {
  const count = alternatives.reduce((n, alt) => n + countUnbounded(alt), 0);
  if (count > MAX_UNBOUNDED_REPEATS) {
    throw new Unsafe(
      `it has ${count} unbounded repeats (*, + or {n,}) and at most ${MAX_UNBOUNDED_REPEATS} is allowed: several of them (like free.*money.*click) make matching take polynomial time on long texts; keep one and bound the others (e.g. .{0,40} instead of .*), or use a keyword rule per word`,
    );
  }
}

function walk(nodes: Node[]): void {
  checkAdjacentRepeats(nodes);
  for (const node of nodes) {
    if (node.type !== 'group') continue;
    checkRepeatedGroup(node);
    for (const alt of node.alternatives) walk(alt);
  }
}

/** Undefined when the pattern is a valid and safe rule expression, else what is wrong with it. */
export function regexProblem(pattern: string): string | undefined {
  if (pattern.length > MAX_PATTERN_LENGTH) return `is longer than ${MAX_PATTERN_LENGTH} characters`;
  try {
    new RegExp(pattern, 'iu');
  } catch (error) {
    return `is not a valid regular expression (${(error as Error).message.replace(/^Invalid regular expression: /, '')})`;
  }
  try {
    const alternatives = parse(pattern);
    for (const alternative of alternatives) walk(alternative);
    // After the shape checks, whose messages say more precisely what to change.
    checkUnboundedCount(alternatives);
  } catch (error) {
    if (error instanceof Unsafe) return `is unsafe: ${error.message}`;
    throw error;
  }
  return undefined;
}
