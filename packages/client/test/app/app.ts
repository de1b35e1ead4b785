/**
 * A small app of @fishlog/client, imported by its package name: test/readme.test.ts compiles it with
 * `tsc --strict` and finds no value in it typed `any`.
 */
import { createFishlogClient, FishlogProblem, ok } from '@fishlog/client';

const fishlog = createFishlogClient({ baseUrl: 'http://127.0.0.1:3000' });

export async function newestTitles(): Promise<string[]> {
  const titles: string[] = [];
  for await (const entry of fishlog.paginate('/api/fishinglog/entries', { params: { query: { mine: true, pageSize: 50 } } })) {
    titles.push(entry.title);
  }
  return titles;
}

export async function entry(id: string) {
  const { data, error } = await fishlog.GET('/api/fishinglog/entries/{id}', { params: { path: { id } } });
  if (error) return `${error.status} ${error.code}: ${error.detail} (${error.requestId ?? ''})`;
  return data.catches.map((c) => c.species.commonName);
}

export async function book(listingId: string, slotId: string, tripTypeId: string) {
  const booking = await ok(fishlog.POST('/api/charter/listings/{listingId}/book', { params: { path: { listingId } }, body: { slotId, tripTypeId, partySize: 2, paymentMethod: '4242424242424242' } }));
  return booking.id;
}

export function isProblem(value: unknown): value is FishlogProblem {
  return value instanceof FishlogProblem;
}
