import { Datagrid, FunctionField, List, SelectInput, TextInput, TextField as RaTextField } from 'react-admin';
import { Alert, Box, Chip, Typography } from '@mui/material';
import type { components, operations } from '@fishlog/client';
import { fishlog } from '../api';
import { Problem, useApiRead } from '../action';
import { choices, when } from '../RecordScreens';

type Job = components['schemas']['Job'];
type Backups = operations['getReadiness']['responses'][200]['content']['application/json']['details']['backups'];

const STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;

const filters = [
  <SelectInput key="state" source="state" label="State" choices={choices(STATES)} alwaysOn />,
  <TextInput key="queue" source="queue" label="Queue name" alwaysOn />,
];

/** How long ago an instant was, in the largest whole unit ("3 hours ago"); "never" without one. */
function age(iso: string | null): string {
  if (!iso) return 'never';
  const seconds = Math.max(0, (Date.now() - new Date(iso).getTime()) / 1000);
  const [value, unit] = seconds < 90 ? [seconds, 'second'] : seconds < 5400 ? [seconds / 60, 'minute'] : seconds < 129_600 ? [seconds / 3600, 'hour'] : [seconds / 86_400, 'day'];
  const n = Math.round(value);
  return `${n} ${unit}${n === 1 ? '' : 's'} ago (${when(iso)})`;
}

/** The backups' state from the public readiness probe (GET /health/ready, `details.backups`; docs/backups.md). */
function BackupsPanel() {
  // A not-ready answer (503) is a problem here: the page shows its text instead.
  const { data, problem } = useApiRead(async () => {
    const { data, error } = await fishlog.GET('/health/ready');
    return error ? { error } : { data: data.details.backups };
  }, []);
  return (
    <Box component="section" aria-labelledby="backups-heading" sx={{ p: 2, pb: 0 }}>
      <Typography component="h2" variant="h6" id="backups-heading">
        Backups
      </Typography>
      <Problem text={problem} />
      {data ? <BackupsState backups={data} /> : null}
    </Box>
  );
}

function BackupsState({ backups }: { backups: Backups }) {
  const ages = (
    <Typography>
      Last archived WAL segment: {age(backups.lastArchivedAt)} · newest base backup: {age(backups.newestBaseBackupAt)}
    </Typography>
  );
  switch (backups.walArchive) {
    case 'ok':
      return (
        <>
          <Alert severity="success">WAL archive: ok, every segment archived.</Alert>
          {ages}
        </>
      );
    case 'failing':
      return (
        <>
          <Alert severity="error" role="alert">
            WAL archive: failing. Segment {backups.failedWal ?? '(unknown)'} could not be archived (last failure {age(backups.lastFailedAt)}). Until it is, no later change can be
            restored: see docs/backups.md.
          </Alert>
          {ages}
        </>
      );
    case 'off':
      return <Alert severity="warning">WAL archive: off (FISHLOG_BACKUPS=false): this server archives no WAL and takes no base backups.</Alert>;
    case 'external':
      return (
        <Alert severity="info">
          WAL archive: external. The database is an external server (DATABASE_URL): its backups belong to that database server&apos;s operator, not to fishlog.
        </Alert>
      );
    default:
      return <Alert severity="warning">WAL archive: unknown (the database cannot be reached).</Alert>;
  }
}

/** A job's state, failures in the error colour. */
function StateChip({ job }: { job: Job }) {
  const color = job.state === 'failed' ? 'error' : job.state === 'retry' ? 'warning' : job.state === 'completed' ? 'success' : 'default';
  return <Chip size="small" label={job.state} color={color} variant={job.state === 'failed' ? 'filled' : 'outlined'} />;
}

/** GET /api/admin/jobs (Settings.View): the job queue newest first, by state and queue (in the URL), with each failure's attempts and last error; the backups above it. */
export default function JobsList() {
  return (
    <>
      <BackupsPanel />
      <List title="Jobs and backups" resource="jobs" filters={filters} perPage={25} exporter={false}>
        {/* Headers on one line ("Runs after" wrapped under its neighbours' dates). */}
        <Datagrid bulkActionButtons={false} rowClick={false} sx={{ '& .RaDatagrid-headerCell': { whiteSpace: 'nowrap' } }}>
          <FunctionField label="State" render={(job: Job) => <StateChip job={job} />} />
          <RaTextField source="queue" label="Queue" sortable={false} />
          <FunctionField label="Attempts" render={(job: Job) => `${job.attempts} of ${job.retryLimit + 1}`} />
          <FunctionField
            label="Last error"
            render={(job: Job) =>
              job.lastError ? (
                <Typography variant="body2" color="error">
                  {job.lastError}
                </Typography>
              ) : (
                '—'
              )
            }
          />
          <FunctionField label="Created" render={(job: Job) => when(job.createdAt)} />
          <FunctionField label="Runs after" render={(job: Job) => (job.state === 'created' || job.state === 'retry' ? when(job.startAfter) : '—')} />
          <FunctionField label="Completed" render={(job: Job) => (job.completedAt ? when(job.completedAt) : '—')} />
        </Datagrid>
      </List>
    </>
  );
}
