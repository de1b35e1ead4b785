import { GearErrors } from './gear.errors.js';
import type { GearKind } from './gear.kinds.js';
import type { gearItems } from './gear.tables.js';

/** Rules of catalog items that the schemas cannot say; the admin API and the seed both apply them. */

export type Columns = Partial<typeof gearItems.$inferInsert>;

/** Rules across fields, on the item as it will be after the change. */
export function checkItem(kind: GearKind, next: Columns): void {
  const range = (low: keyof Columns, high: keyof Columns) => {
    const a = next[low] as number | null | undefined;
    const b = next[high] as number | null | undefined;
    if (a != null && b != null && b < a) throw GearErrors.badRange(high, low);
  };
  if (kind === 'rod') {
    if (next.rodType === 'Fly') {
      if (next.flyLineWeight == null) throw GearErrors.missingField('flyLineWeight', 'for fly rods');
    } else {
      if (next.power == null) throw GearErrors.missingField('power', `for ${String(next.rodType).toLowerCase()} rods`);
      if (next.flyLineWeight != null) throw GearErrors.fieldNotAllowed('flyLineWeight', 'to rods other than fly rods');
    }
    range('lineMinLb', 'lineMaxLb');
    range('lureMinG', 'lureMaxG');
  }
  if (kind === 'lure') {
    if (next.lureType !== 'Soft plastic' && next.weightG == null) throw GearErrors.missingField('weightG', 'for lures other than soft plastics');
    range('divingDepthMinM', 'divingDepthMaxM');
  }
}

