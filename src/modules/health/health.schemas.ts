import { Type, type Static } from 'typebox';

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
