import { Type, type Static } from 'typebox';
import { Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';
import { ID_EXAMPLE, OrganizerStatusSchema, optionalText, Reason, Url } from './tournaments.schemas.js';

// ---------- organizers ----------


const organizerProperties = {
  id: Uuid,
  userId: Uuid,
  name: Type.String({ examples: ['Lake Country Bass Club'] }),
  contactEmail: Type.String({ examples: ['events@example.com'] }),
  contactPhone: Nullable(Type.String()),
  website: Nullable(Type.String()),
  takesPayments: Type.Boolean({ description: 'The organizer asked to take entry fees' }),
  paymentsAllowed: Type.Boolean({ description: 'The verification allows paid tournaments' }),
  status: OrganizerStatusSchema,
  statusReason: Nullable(Type.String({ description: 'Why it was rejected or suspended' })),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

const organizerExample = {
  id: ID_EXAMPLE,
  userId: ID_EXAMPLE,
  name: 'Lake Country Bass Club',
  contactEmail: 'events@example.com',
  contactPhone: null,
  website: 'https://example.com',
  takesPayments: true,
  paymentsAllowed: false,
  status: 'Pending',
  statusReason: null,
  createdAt: '2026-03-01T12:00:00.000Z',
  updatedAt: '2026-03-01T12:00:00.000Z',
};

export const Organizer = Type.Object(organizerProperties, { additionalProperties: false, $id: 'TournamentOrganizer', examples: [organizerExample] });

export const AdminOrganizer = Type.Object(
  {
    ...organizerProperties,
    reviewedAt: Nullable(Timestamp),
    usage: Type.Object(
      { tournaments: Type.Integer({ description: 'Tournaments created' }), registrations: Type.Integer({ description: 'Active registrations in them' }) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, $id: 'AdminTournamentOrganizer' },
);

export const ApplyOrganizerBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 120, description: 'Club, business or person running the tournaments' }),
    contactEmail: Type.String({ format: 'email', maxLength: 200, examples: ['events@example.com'] }),
    contactPhone: optionalText(40),
    website: Type.Optional(Nullable(Url)),
    takesPayments: Type.Optional(Type.Boolean({ default: false, description: 'Ask to run paid tournaments (entry fees)' })),
  },
  {
    additionalProperties: false,
    examples: [{ name: 'Lake Country Bass Club', contactEmail: 'events@example.com', website: 'https://example.com', takesPayments: true }],
  },
);
export type ApplyOrganizerInput = Static<typeof ApplyOrganizerBody>;
export const VerifyOrganizerBody = Type.Object(
  { reason: Reason, allowPayments: Type.Optional(Type.Boolean({ description: 'Allow paid tournaments (default: what the organizer asked for)' })) },
  { additionalProperties: false, examples: [{ reason: 'Club registration checked', allowPayments: true }] },
);
