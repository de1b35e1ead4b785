import type { ModeratedType } from '../moderation.types.js';

/**
 * The moderation provider interface. A provider rates text (and image URLs) and says whether it
 * is flagged, in which categories, with a score (0..1) per category. Adding a provider is one
 * file exporting a `ProviderDefinition`, listed in `providers/index.ts`.
 */

export interface ModerationInput {
  text: string;
  imageUrls: string[];
  contentType: ModeratedType;
}

export interface ModerationResult {
  flagged: boolean;
  /** Categories the provider flagged. */
  categories: string[];
  /** Score per category, 0..1 (categories it rated; flagged or not). */
  scores: Record<string, number>;
  provider: string;
  model: string;
  costUsd: number;
  latencyMs: number;
}

/**
 * The image URLs that are addresses, which text rules and word lists may read; a `data:` URL is
 * an image's bytes (uploaded photos), for a provider that looks at images only.
 */
export function linkedImages(imageUrls: readonly string[]): string[] {
  return imageUrls.filter((url) => !url.startsWith('data:'));
}

/** The settings a provider is built from (moderation settings, API key included). */
export interface ProviderSettings {
  model: string | null;
  baseUrl: string | null;
  apiKey: string | null;
  costPerCallUsd: number;
}

export interface ModerationProvider {
  readonly name: string;
  readonly model: string;
  /** Rates the input. Must honour `signal` (the pipeline also stops waiting when it fires). */
  moderate(input: ModerationInput, options: { signal: AbortSignal }): Promise<ModerationResult>;
}

export interface ProviderDefinition {
  name: string;
  description: string;
  /** Whether calls leave the machine (and can cost money: the monthly budget applies). */
  remote: boolean;
  defaultModel: string;
  defaultBaseUrl: string | null;
  /** Settings that must be set before an admin may select it. */
  requires: ReadonlyArray<'apiKey' | 'baseUrl'>;
  create(settings: ProviderSettings): ModerationProvider;
}

/** A provider answered, but not with a usable result (HTTP error, malformed body). */
export class ProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderError';
  }
}
