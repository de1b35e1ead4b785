import type { ServiceDeps } from '../../core/service-deps.js';
import { Type } from 'typebox';
import type { DbOrTx } from '../../core/db/client.js';
import * as repo from './regulations.repository.js';
import { stateTimeZone } from './regulations.service.js';
import { addDays, localDate } from './rules.js';

/**
 * Regulation data about to run out, for operators (the dashboard overview, /health/ready, the log at
 * start): jurisdictions whose newest license year ends within DATA_WARNING_DAYS or has ended. It is a
 * data warning, not an outage: lookups keep answering (flagged Outdated) and readiness stays ready.
 */

export const DATA_WARNING_DAYS = 30;

export const RegulationDataWarning = Type.Object(
  {
    jurisdiction: Type.String({ examples: ['US-MN'] }),
    name: Type.String({ examples: ['Minnesota'] }),
    licenseYear: Type.Integer({ description: 'The newest license year we have', examples: [2025] }),
    dataEndsOn: Type.String({ description: 'Its last day (YYYY-MM-DD)', examples: ['2026-02-28'] }),
    status: Type.Union([Type.Literal('EndingSoon'), Type.Literal('Ended')], { description: `EndingSoon: ends within ${DATA_WARNING_DAYS} days; Ended: lookups after it answer Outdated` }),
    daysLeft: Type.Integer({ description: 'Days from today to the last day (negative once ended)', examples: [-271] }),
    sourceUrl: Type.String({ description: 'The agency’s regulations page, where the next year’s rules are published' }),
  },
  { additionalProperties: false },
);

function daysFrom(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

export async function regulationDataWarnings(deps: ServiceDeps<DbOrTx>, now: Date) {
  const { db } = deps;
  const rows = await repo.dataEnds(db);
  return rows.flatMap((row) => {
    const today = localDate(now, stateTimeZone(row.code));
    if (row.endsOn > addDays(today, DATA_WARNING_DAYS)) return [];
    const daysLeft = daysFrom(today, row.endsOn);
    return [{ jurisdiction: row.code, name: row.name, licenseYear: row.year, dataEndsOn: row.endsOn, status: daysLeft < 0 ? ('Ended' as const) : ('EndingSoon' as const), daysLeft, sourceUrl: row.agencyUrl }];
  });
}
