import type { ModerationRuleRow } from './moderation.tables.js';
import type { ModeratedType } from './moderation.types.js';
import { normalise } from './providers/local.js';
import { MAX_RULE_INPUT, regexRunner, type RegexRunner } from './rule-runner.js';

/**
 * Matching content against the admins' rules. Keywords match as whole words or phrases, case-
 * and accent-insensitively, also when written with look-alike characters (0 for o, $ for s);
 * they run here, with expressions built from escaped text. Regular expressions (checked for
 * unsafe shapes when saved) run case-insensitively in the rule runner, with a time limit.
 */

const keywordCache = new Map<string, RegExp>();

export function keywordRegex(keyword: string): RegExp {
  let regex = keywordCache.get(keyword);
  if (regex) return regex;
  const phrase = normalise(keyword.trim())[0]!
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/\s+/g, '\\s+');
  regex = new RegExp(`(?<![\\p{L}\\p{N}])${phrase}(?![\\p{L}\\p{N}])`, 'iu');
  if (keywordCache.size >= 1000) keywordCache.clear();
  keywordCache.set(keyword, regex);
  return regex;
}

export function appliesTo(rule: Pick<ModerationRuleRow, 'appliesToPosts' | 'appliesToComments'>, contentType: ModeratedType): boolean {
  return contentType === 'comment' ? rule.appliesToComments : rule.appliesToPosts;
}

export interface RuleMatches {
  matched: ModerationRuleRow[];
  /** A regular expression that ran out of time (the content is then held for review). */
  timedOut: ModerationRuleRow | undefined;
}

export async function matchRules(rules: ModerationRuleRow[], text: string, runner: RegexRunner = regexRunner): Promise<RuleMatches> {
  const input = text.slice(0, MAX_RULE_INPUT);
  const forms = [input, ...normalise(input)];
  const matched = rules.filter((rule) => rule.kind === 'keyword' && forms.some((form) => keywordRegex(rule.pattern).test(form)));
  const regexRules = rules.filter((rule) => rule.kind === 'regex');
  const result = await runner.run(
    regexRules.map((rule) => ({ id: rule.id, source: rule.pattern, flags: 'iu' })),
    input,
  );
  const byId = new Map(regexRules.map((rule) => [rule.id, rule]));
  for (const id of result.matched) matched.push(byId.get(id)!);
  return { matched, timedOut: result.timedOut === undefined ? undefined : byId.get(result.timedOut) };
}
