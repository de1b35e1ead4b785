import type { Seed } from '../../core/db/seeds.js';
import { lookupValues } from './lookups.tables.js';

type SeedValue = { code: string; label: string; description?: string };

/**
 * The vocabularies the API started with, the values its fields accepted before they became
 * extensible: fishing reports' water clarity and sky, and the event types the public events API
 * names (Expo, SwapMeet, Seminar, Tournament, Other). Inserted when missing, in this order (sort
 * order 10, 20, …); a value an administrator changed or deactivated is left alone.
 */
export const DEFAULT_LOOKUPS: Record<string, SeedValue[]> = {
  WaterClarity: [
    { code: 'Clear', label: 'Clear', description: 'Bottom visible well below the surface' },
    { code: 'Stained', label: 'Stained', description: 'Tea- or green-tinted, visibility reduced' },
    { code: 'Murky', label: 'Murky', description: 'Little visibility' },
    { code: 'Muddy', label: 'Muddy', description: 'Silt-laden, almost no visibility' },
  ],
  Sky: [
    { code: 'Sunny', label: 'Sunny' },
    { code: 'PartlyCloudy', label: 'Partly cloudy' },
    { code: 'Overcast', label: 'Overcast' },
    { code: 'Rain', label: 'Rain' },
    { code: 'Snow', label: 'Snow' },
    { code: 'Fog', label: 'Fog' },
    { code: 'Storm', label: 'Storm' },
  ],
  EventType: [
    { code: 'Expo', label: 'Expo', description: 'Outdoor or boat show, fishing expo' },
    { code: 'SwapMeet', label: 'Swap meet', description: 'Buy, sell and trade used tackle' },
    { code: 'Seminar', label: 'Seminar', description: 'Talks and hands-on classes' },
    { code: 'Tournament', label: 'Tournament', description: 'A fishing competition (tournaments with registration and scoring live at /api/tournament)' },
    { code: 'Other', label: 'Other' },
  ],
};

export const lookupsSeed: Seed = {
  name: 'lookups.defaults',
  version: 1,
  description: 'Lookup values the API starts with (water clarity, sky, event types)',
  async run({ tx }) {
    const rows = Object.entries(DEFAULT_LOOKUPS).flatMap(([category, values]) =>
      values.map((v, i) => ({ category, code: v.code, label: v.label, description: v.description ?? null, sortOrder: (i + 1) * 10 })),
    );
    await tx.insert(lookupValues).values(rows).onConflictDoNothing({ target: [lookupValues.category, lookupValues.code] });
  },
};
