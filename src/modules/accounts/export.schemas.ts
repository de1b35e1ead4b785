import { Type } from 'typebox';
import { literals, Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';
import { EXPORT_STATUSES } from './accounts.tables.js';

export const AccountExport = Type.Object(
  {
    id: Uuid,
    status: literals(
      EXPORT_STATUSES,
      'Pending: being written (you are notified when it is ready); Ready: download it until `expiresAt`; Expired: deleted after 7 days, ask again; Failed: ask again',
    ),
    createdAt: Type.String({ format: 'date-time', description: 'When you asked for it' }),
    readyAt: Nullable(Timestamp, { description: 'When the archive was written' }),
    expiresAt: Nullable(Timestamp, { description: 'When the archive is deleted (7 days after `readyAt`)' }),
    size: Nullable(Type.Integer({ minimum: 0, description: 'Bytes of the archive (tar.gz)' }), { description: 'Null until ready, and once expired' }),
  },
  {
    $id: 'AccountExport',
    additionalProperties: false,
    examples: [
      {
        id: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d31',
        status: 'Ready',
        createdAt: '2026-06-01T05:30:00.000Z',
        readyAt: '2026-06-01T05:31:12.000Z',
        expiresAt: '2026-06-08T05:31:12.000Z',
        size: 482133,
      },
    ],
  },
);

/** The archive (GET /api/account/export/download). */
export const ExportBytes = {
  description: 'The archive (tar.gz): README.md, users.ndjson, one `<table>.ndjson` per table that keeps rows about you, and `photos/<id>.jpg`: the display size of each of your photos',
  headers: { 'Content-Disposition': { type: 'string', description: '`attachment; filename="fishlog-data-<date>.tar.gz"`' } },
  content: { 'application/gzip': { schema: { type: 'string', format: 'binary' } } },
};
