import { linkedImages, type ModerationInput, type ModerationProvider, type ModerationResult, type ProviderDefinition } from './types.js';

/**
 * The local provider (default): deterministic, no network, microseconds per call. It rates text
 * against a built-in word list per category, after normalising it (case, accents, common
 * character substitutions such as 0→o and $→s, letters stretched to three or more). The
 * moderation rules of the admins apply on top of it, as they do for every provider.
 */

const MODEL = 'fishlog-wordlist-v1';

/** Category → [score when present, phrases]. Phrases are matched as whole words, spaces flexible. */
const WORD_LIST: Record<string, [number, string[]]> = {
  profanity: [0.6, ['fuck', 'fucking', 'fucker', 'motherfucker', 'shit', 'bullshit', 'asshole', 'bastard', 'bitch', 'cunt', 'dickhead', 'wanker']],
  harassment: [0.85, ['kill yourself', 'kys', 'go die', 'you are worthless', 'youre worthless', 'nobody likes you', 'retard', 'loser idiot']],
  hate: [0.9, ['subhuman', 'go back to your country', 'inferior race', 'ethnic cleansing']],
  violence: [0.85, ['i will kill you', 'ill kill you', 'im going to kill you', 'shoot you', 'stab you', 'bomb threat', 'beat you up']],
  sexual: [0.8, ['porn', 'porno', 'nudes', 'send nudes', 'xxx', 'onlyfans', 'camgirl']],
  spam: [0.75, ['buy followers', 'free money', 'crypto giveaway', 'double your bitcoin', 'work from home and earn', 'click here to win', 'limited time offer', 'dm me to earn', 'casino bonus']],
  illicit: [0.8, ['buy cocaine', 'selling meth', 'buy meth', 'fake ids for sale', 'stolen credit cards']],
};

const SUBSTITUTIONS: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };

/** The forms of a text the word list is matched against: as written, and with stretched letters shrunk. */
export function normalise(text: string): string[] {
  const plain = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[013457@$]/g, (c) => SUBSTITUTIONS[c] ?? c)
    .replace(/['’`]/g, '');
  const shrunk = plain.replace(/(\p{L})\1{2,}/gu, '$1');
  return shrunk === plain ? [plain] : [plain, shrunk];
}

function escape(phrase: string): string {
  return phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');
}

/** One linear-time expression per category: literal alternatives between word boundaries. */
const MATCHERS = Object.entries(WORD_LIST).map(([category, [score, phrases]]) => ({
  category,
  score,
  regex: new RegExp(`(?<![\\p{L}\\p{N}])(?:${phrases.map(escape).join('|')})(?![\\p{L}\\p{N}])`, 'gu'),
}));

export const LOCAL_CATEGORIES = Object.keys(WORD_LIST);

export function rateLocally(input: ModerationInput): Omit<ModerationResult, 'latencyMs'> {
  const forms = normalise([input.text, ...linkedImages(input.imageUrls)].join('\n'));
  const scores: Record<string, number> = {};
  const categories: string[] = [];
  for (const { category, score, regex } of MATCHERS) {
    const hits = Math.max(...forms.map((form) => form.match(regex)?.length ?? 0));
    const value = hits === 0 ? 0 : Math.min(1, Math.round((score + 0.05 * (hits - 1)) * 1000) / 1000);
    scores[category] = value;
    if (value >= 0.5) categories.push(category);
  }
  return { flagged: categories.length > 0, categories, scores, provider: 'local', model: MODEL, costUsd: 0 };
}

export const localProvider: ProviderDefinition = {
  name: 'local',
  description: 'Built-in word list and the moderation rules; no network, no cost',
  remote: false,
  defaultModel: MODEL,
  defaultBaseUrl: null,
  requires: [],
  create(): ModerationProvider {
    return {
      name: 'local',
      model: MODEL,
      async moderate(input) {
        const started = performance.now();
        const result = rateLocally(input);
        return { ...result, latencyMs: Math.round(performance.now() - started) };
      },
    };
  },
};
