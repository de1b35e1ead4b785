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

export const BackupReadiness = Type.Object(
  {
    walArchive: Type.Union([Type.Literal('ok'), Type.Literal('failing'), Type.Literal('off'), Type.Literal('external'), Type.Literal('unknown')], {
      description:
        'The embedded PostgreSQL\'s WAL archiving (docs/backups.md): `failing` when its last attempt failed (a warning that never makes the service not ready), ' +
        '`off` with FISHLOG_BACKUPS=false, `external` with DATABASE_URL (that server\'s operator backs it up), `unknown` while the database cannot be reached',
    }),
    lastArchivedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    lastFailedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    failedWal: Type.Union([Type.String({ description: 'The WAL segment that fails to archive, while it does' }), Type.Null()]),
    newestBaseBackupAt: Type.Union([Type.String({ format: 'date-time', description: 'When the newest base backup ended' }), Type.Null()]),
    upload: Type.Union(
      [
        Type.Object(
          {
            status: Type.Union([Type.Literal('ok'), Type.Literal('failing'), Type.Literal('waiting')], {
              description:
                '`failing` when the last copy into the bucket failed (a warning that never makes the service not ready; why is in the log and the jobs view, not in this public answer), `waiting` before the first copy',
            }),
            lastUploadedAt: Type.Union([Type.String({ format: 'date-time', description: 'When the last copy that succeeded ended' }), Type.Null()]),
            lastFailedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
            pendingFiles: Type.Integer({ minimum: 0, description: 'Files of the backup folder not yet known to be in the bucket' }),
            oldestPendingAt: Type.Union([Type.String({ format: 'date-time', description: 'When the oldest of them was written: a lost server loses what came after it' }), Type.Null()]),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'The copy of the backups into the S3 bucket (FISHLOG_BACKUP_TARGET=s3, every minute); null without one' },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        walArchive: 'ok',
        lastArchivedAt: '2026-11-28T14:05:12.000Z',
        lastFailedAt: null,
        failedWal: null,
        newestBaseBackupAt: '2026-11-28T03:17:40.000Z',
        upload: { status: 'ok', lastUploadedAt: '2026-11-28T14:06:00.000Z', lastFailedAt: null, pendingFiles: 0, oldestPendingAt: null },
      },
    ],
  },
);

export const ReplicaReadiness = Type.Object(
  {
    name: Type.String({ description: 'host:port/database of the replica' }),
    healthy: Type.Boolean({ description: 'In the pool: answering, a standby, and lagging no more than DATABASE_REPLICA_MAX_LAG_MS' }),
    lagSeconds: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], { description: 'Age of the oldest primary WAL position it had not replayed at the last check (null: it did not answer)' }),
    lagBytes: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'WAL bytes between the primary and its replay position at the last check' }),
    replayLsn: Type.Union([Type.String({ examples: ['0/3A2B1C8'] }), Type.Null()], { description: 'Its replay position (pg_last_wal_replay_lsn()) at the last check' }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'Why it is out of the pool' }),
    checkedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { additionalProperties: false, examples: [{ name: 'replica-1:5432/fishlog', healthy: true, lagSeconds: 0, lagBytes: 0, replayLsn: '0/3A2B1C8', error: null, checkedAt: '2026-11-29T01:00:00.000Z' }] },
);

export const Readiness = Type.Object(
  {
    status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
    database: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
    migrations: Type.Union([Type.Literal('applied'), Type.Literal('pending'), Type.Literal('unknown')], { description: '`unknown` while the database cannot be reached' }),
    shuttingDown: Type.Boolean(),
    details: Type.Object(
      {
        backups: BackupReadiness,
        replicas: Type.Array(ReplicaReadiness, {
          description: 'The read replicas (DATABASE_REPLICA_URLS; empty without): one out of the pool never makes the service not ready, its reads go to the primary',
        }),
        regulationData: Type.Array(RegulationDataWarning, {
          description: `Jurisdictions whose regulation data ends within ${DATA_WARNING_DAYS} days or has ended: a data warning that never makes the service not ready (empty while the database cannot be reached)`,
        }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, $id: 'Readiness' },
);
