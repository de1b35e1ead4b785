/**
 * Moderation rules on RE2: how long the rules of one post take, in the request's process. A 4 KB
 * post (fishing talk, no match: what nearly every post is) against 50 regular-expression rules of
 * the kinds admins write (phrases with flexible spaces, alternations, links, phone numbers,
 * `.*` between words, Unicode classes). Goal: at most 1 ms at the median. Also shown: the first
 * evaluation (compiling the 50 rules and their alternation), a post that matches (the rules are
 * then tried one by one), and a hostile 10 KB text for `(a+)+$` and `(.*a){20}`.
 *
 *   npm run bench:moderation-rules                 # BENCH_RULES_ROUNDS=2000 by default
 *
 * No database, no server: it calls the matching the moderation service calls. Not part of `npm test`.
 */
import { matchRules } from '../src/modules/moderation/rules.js';
import type { ModerationRuleRow } from '../src/modules/moderation/moderation.tables.js';

const ROUNDS = Number(process.env.BENCH_RULES_ROUNDS ?? 2000);
const GOAL_P50_MS = 1;

const shapes = [
  (w: string) => `buy\\s+(cheap\\s+)?${w}`,
  (w: string) => `\\b(free|discount|cheap)\\s+${w}\\b`,
  (w: string) => `https?://\\S*${w}\\.(xyz|top|click)`,
  (w: string) => `${w}.*(whatsapp|telegram)`,
  (w: string) => `\\+?\\d{2,3}[ -]?\\d{3}[ -]?\\d{4}\\s*${w}`,
  (w: string) => `v[i1!|]agra|${w}\\s*c[a4]sino`,
  (w: string) => `(?:sell|selling|sold)\\s+(?:my\\s+)?${w}\\s+spots?`,
  (w: string) => `\\p{Lu}{5,}\\s+${w}`,
  (w: string) => `${w}[\\s_.-]*(?:dot|\\.)\\s*com`,
  (w: string) => `(?:dm|message)\\s+me\\s+(?:for|about)\\s+${w}`,
];
const words = ['bait', 'lures', 'followers', 'crypto', 'tickets', 'rods', 'reels', 'permits', 'licences', 'guides'];
const rules: ModerationRuleRow[] = Array.from({ length: 50 }, (_, i) => ({
  id: `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`,
  name: `rule ${i}`,
  kind: 'regex',
  pattern: shapes[i % shapes.length]!(words[Math.floor(i / shapes.length) + (i % 2) * 5]!),
  appliesToPosts: true,
  appliesToComments: true,
  action: 'flag',
  category: 'spam',
  reason: null,
  matchCount: 0,
  lastMatchedAt: null,
  timeoutCount: 0,
  isActive: true,
  deactivatedAt: null,
  deactivatedBy: null,
  deactivationReason: null,
  createdBy: null,
  createdAt: new Date(),
  updatedAt: new Date(),
}));

const sentences = [
  'Launched at first light from the north ramp, fog still on the water.',
  'Two walleye on a jig and minnow along the 18-foot break, then nothing for an hour.',
  'Switched to a crankbait over the weed edge and a 41 cm pike hit on the third cast.',
  'Wind picked up from the southwest around ten, so we drifted the flats with spinner rigs.',
  'Released everything but two eaters; water temperature 14 °C, clarity about a metre.',
];
let post = '';
for (let i = 0; post.length < 4096; i++) post += `${sentences[i % sentences.length]} `;
post = post.slice(0, 4096);
const matching = `${post.slice(0, 4000)} DM me for bait, selling my lures spots`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

function measure(text: string, rounds: number) {
  const times: number[] = [];
  let matched = 0;
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    matched = matchRules(rules, text).length;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { matched, p50: percentile(times, 50), p99: percentile(times, 99) };
}

const compileStarted = performance.now();
const first = matchRules(rules, post).length;
const compileMs = performance.now() - compileStarted;
const clean = measure(post, ROUNDS);
const hit = measure(matching, Math.max(50, ROUNDS / 10));
const hostileRules = rules.slice(0, 48).concat(
  { ...rules[0]!, id: 'hostile-1', pattern: '(a+)+$' },
  { ...rules[0]!, id: 'hostile-2', pattern: '(.*a){20}' },
);
const hostileText = `${'a'.repeat(10_240)}!`;
matchRules(hostileRules, hostileText);
const hostileStarted = performance.now();
const hostileMatched = matchRules(hostileRules, hostileText).map((r) => r.id);
const hostileMs = performance.now() - hostileStarted;

const ms = (n: number) => `${n.toFixed(3)} ms`;
console.log(`moderation rules on RE2 (re2-wasm), 50 regex rules, node ${process.version}`);
console.log(`  first evaluation (compiles the rules):  ${ms(compileMs)} (${first} matched)`);
console.log(`  4 KB post, no match, ${ROUNDS} rounds:   p50 ${ms(clean.p50)}, p99 ${ms(clean.p99)} (${clean.matched} matched)`);
console.log(`  4 KB post matching ${hit.matched} rules:         p50 ${ms(hit.p50)}, p99 ${ms(hit.p99)}`);
console.log(`  10 KB hostile text, (a+)+$ and (.*a){20} among 50: ${ms(hostileMs)} (matched: ${hostileMatched.join(', ')})`);
const met = clean.p50 <= GOAL_P50_MS;
console.log(`goal: p50 ≤ ${GOAL_P50_MS} ms for a 4 KB post against 50 rules: ${met ? 'met' : 'NOT met'}`);
if (!met) process.exitCode = 1;
