/** ISO 3166-1 alpha-2 country codes and their English names (from the ICU data in Node). */

/** Made at the first use: loading the ICU region names takes ~15 ms, which a start need not pay. */
let regions: Intl.DisplayNames | undefined;

/** The English name of a country code ("JP" → "Japan"), or undefined when it is not one. */
export function countryName(code: string): string | undefined {
  if (!/^[A-Z]{2}$/.test(code) || code === 'ZZ') return undefined;
  try {
    return (regions ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' })).of(code) ?? undefined;
  } catch {
    return undefined;
  }
}
