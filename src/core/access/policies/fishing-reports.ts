import { conflict, definePolicy, isOwner, type Rule } from '../policy.js';
import { ownerShownTo } from './common.js';

/**
 * Fishing reports. Published reports are seen by every signed-in user; a report held for review
 * or rejected only by its author (who sees why). The exact point is shown to the author, and to
 * everyone when the author chose `exactLocation`; others see it rounded to ~1 km. Anyone but the
 * author may mark a published report helpful (marking one's own is a state conflict, 409).
 */
export interface FishingReportRecord {
  readonly ownerId: string;
  readonly status: string;
  readonly exactLocation: boolean;
}

const view: Rule<FishingReportRecord> = async (viewer, report, context) => {
  if (report.status !== 'Published' && !isOwner(viewer, report))
    return { code: 'reports.not_published', detail: 'This fishing report is not published (held for review or rejected); only its author can see it.' };
  return (await ownerShownTo(viewer, report.ownerId, context))
    ? true
    : { code: 'reports.not_visible', detail: 'The account of this report’s author is deactivated: the report is not shown meanwhile.' };
};

export const fishingReportPolicy = definePolicy<FishingReportRecord, 'view' | 'seeExact' | 'markHelpful'>('fishing-reports', {
  view,
  seeExact: (viewer, report) =>
    report.exactLocation || isOwner(viewer, report) ? true : { code: 'reports.location_rounded', detail: 'The author shares this location to the nearest kilometre.' },
  markHelpful: async (viewer, report, context) => {
    const seen = await view(viewer, report, context);
    if (seen !== true) return seen;
    if (isOwner(viewer, report)) return conflict('reports.own_report', 'You cannot mark your own report helpful.');
    return true;
  },
});
