import type { ModerationRuleRow } from './moderation.tables.js';
import type { ModeratedType } from './moderation.types.js';
import { normalise } from './providers/local.js';
import { matchingRegexRules } from './rule-regex.js';

/**
 * Matching content against the admins' rules. Keywords match as whole words or phrases, case-
 * and accent-insensitively, also when written with look-alike characters (0 for o, $ for s);
 * they run on JavaScript's engine, with expressions built from escaped text. Regular expressions
 * run on RE2 (rule-regex.ts), ignoring case: linear in the text whatever the pattern.
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

/** The rules that match `text`; throws EngineExhausted (rule-regex.ts) when RE2 could not run them. */
export function matchRules(rules: ModerationRuleRow[], text: string): ModerationRuleRow[] {
  const keywordRules = rules.filter((rule) => rule.kind === 'keyword');
  const forms = keywordRules.length > 0 ? [text, ...normalise(text)] : [];
  const keywords = keywordRules.filter((rule) => forms.some((form) => keywordRegex(rule.pattern).test(form)));
  return [...keywords, ...matchingRegexRules(rules.filter((rule) => rule.kind === 'regex'), text)];
}
