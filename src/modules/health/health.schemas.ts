import { Type, type Static } from 'typebox';
import { DATA_WARNING_DAYS, RegulationDataWarning } from '../regulations/index.js';

export const Health = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('error')], { description: '`ok` when the service can serve requests' }),
    database: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
    version: Type.String({ examples: ['0.1.0'] }),
    uptimeSeconds: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false, $id: 'Health' },
);
export type HealthBody = Static<typeof Health>;

export const Liveness = Type.Object(
  { status: Type.Literal('ok', { description: 'The process is up and answering' }), uptimeSeconds: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false, $id: 'Liveness' },
);

export const Readiness = Type.Object(
  {
    status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
    database: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
    migrations: Type.Union([Type.Literal('applied'), Type.Literal('pending'), Type.Literal('unknown')], { description: '`unknown` while the database cannot be reached' }),
    shuttingDown: Type.Boolean(),
    details: Type.Object(
      {
        regulationData: Type.Array(RegulationDataWarning, {
          description: `Jurisdictions whose regulation data ends within ${DATA_WARNING_DAYS} days or has ended: a data warning that never makes the service not ready (empty while the database cannot be reached)`,
        }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, $id: 'Readiness' },
);
