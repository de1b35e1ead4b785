import { v7 } from 'uuid';

/**
 * Row ids: UUIDv7 (time-ordered: new rows land at the right edge of their index), made by the
 * `uuid` package; ids made in one process sort in the order they were made (its monotonic
 * sequence within a millisecond), so rows written in one transaction, which share their `now()`,
 * keep their order by id.
 */
export function uuidv7(): string {
  return v7();
}
