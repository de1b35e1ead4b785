import { localProvider } from './local.js';
import { openAiProvider } from './openai.js';
import type { ProviderDefinition } from './types.js';

/** The moderation providers an admin can select (moderation settings `provider`). */
const DEFINITIONS: ProviderDefinition[] = [localProvider, openAiProvider];

export const PROVIDERS: ReadonlyMap<string, ProviderDefinition> = new Map(DEFINITIONS.map((d) => [d.name, d]));
export const PROVIDER_NAMES: readonly string[] = DEFINITIONS.map((d) => d.name);

export function providerDefinition(name: string): ProviderDefinition | undefined {
  return PROVIDERS.get(name);
}
