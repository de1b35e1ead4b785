import { definePolicy, isOwner } from '../policy.js';

/**
 * Fishing reports. Published reports are seen by every signed-in user; a report held for review
 * or rejected only by its author (who sees why). The exact point is shown to the author, and to
 * everyone when the author chose `exactLocation`; others see it rounded to ~1 km. Anyone but the
 * author may mark a published report helpful.
 */
export interface FishingReportRecord {
  readonly ownerId: string;
  readonly status: string;
  readonly exactLocation: boolean;
}

export const fishingReportPolicy = definePolicy<FishingReportRecord, 'view' | 'seeExact' | 'markHelpful'>('fishing-reports', {
  view: (viewer, report) =>
    report.status === 'Published' || isOwner(viewer, report)
      ? true
      : { code: 'reports.not_published', detail: 'This fishing report is not published (held for review or rejected); only its author can see it.' },
  seeExact: (viewer, report) =>
    report.exactLocation || isOwner(viewer, report) ? true : { code: 'reports.location_rounded', detail: 'The author shares this location to the nearest kilometre.' },
  markHelpful: (viewer, report) => {
    if (isOwner(viewer, report)) return { code: 'reports.own_report', detail: 'You cannot mark your own report helpful.' };
    if (report.status !== 'Published') return { code: 'reports.not_published', detail: 'Only published reports can be marked helpful.' };
    return true;
  },
});
