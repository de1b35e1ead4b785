import { useState } from 'react';
import { SelectInput, TextInput, usePermissions } from 'react-admin';
import { Button, Paper, Stack, TextField, Typography } from '@mui/material';
import type { components, operations } from '@fishlog/client';
import { fishlog } from '../api';
import { Problem, TableSection, useApiAction } from '../action';
import { may, type MyAccess } from '../access';
import { queueScreen } from '../Decisions';
import type { Field, Option } from '../RecordForm';
import { active, choices, column, usageColumn, list, recordScreens, search, speciesMatching, when, type RecordScreen, type Row } from '../RecordScreens';

type Jurisdiction = components['schemas']['AdminRegulationJurisdiction'];
type Zone = components['schemas']['AdminRegulationZone'];
type RuleSet = components['schemas']['AdminRegulationRuleSet'];
type Order = components['schemas']['AdminRegulationEmergencyOrder'];
type Program = components['schemas']['AdminMasterAnglerProgram'];
type Submission = components['schemas']['MasterAnglerSubmission'];
type ImportResult = operations['adminImportRegulationLicenseYears']['responses'][200]['content']['application/json'];

/**
 * Regulations (Regulations.View to read, Regulations.Edit to change; the API decides each call):
 * jurisdictions (with the import of a license-year file), zones and special waters, rule-set
 * versions, emergency orders, Master Angler programs, and the Master Angler submissions to decide.
 */
const activeFilter = <SelectInput key="active" source="active" label="Status" choices={[{ id: 'true', name: 'Active' }, { id: 'false', name: 'Deactivated' }]} alwaysOn />;
const inactiveReason = (r: Row) => (r.isActive ? [] : [['Deactivated because', String(r.deactivationReason ?? '—')] as const]);
const inches = (length: { in: number; cm: number } | null) => (length ? `${length.in} in (${length.cm} cm)` : null);

const jurisdictionsMatching = async (q: string): Promise<Option[]> => {
  const { data } = await fishlog.GET('/api/admin/regulations/jurisdictions', { params: { query: { active: true, pageSize: 20, ...(q ? { q } : {}) } } });
  return (data ?? []).map((j) => ({ id: j.id, label: `${j.code} ${j.name}` }));
};
const zonesMatching = async (q: string): Promise<Option[]> => {
  const { data } = await fishlog.GET('/api/admin/regulations/zones', { params: { query: { active: true, pageSize: 20, ...(q ? { q } : {}) } } });
  return (data ?? []).map((z) => ({ id: z.id, label: `${z.jurisdictionCode} ${z.name}` }));
};

/** Where a rule or an order applies: a jurisdiction, a zone or water in it (none: statewide), a species (for an order: none is all). */
const where = (speciesRequired: boolean): Field[] => [
  { source: 'jurisdictionId', label: 'Jurisdiction', kind: 'pick', required: true, search: jurisdictionsMatching },
  { source: 'zoneId', label: 'Zone or water (empty: statewide)', kind: 'pick', search: zonesMatching },
  { source: 'speciesId', label: speciesRequired ? 'Species' : 'Species (empty: all)', kind: 'pick', required: speciesRequired, search: speciesMatching },
];

const jurisdictions: RecordScreen = {
  noun: 'jurisdiction',
  name: (r) => `${String(r.code)} ${String(r.name)}`,
  filters: [search('Code or name contains'), activeFilter],
  defaultFilter: { active: 'true' },
  page: 'expand',
  manage: 'Regulations.Edit',
  columns: [
    column('Agency', (r) => String(r.agencyName)),
    column('License year starts', (r) => `${String(r.licenseYearStartMonth)}/${String(r.licenseYearStartDay)}`),
    usageColumn('License years', 'licenseYears'),
    usageColumn('Rule sets', 'ruleSets'),
    usageColumn('Zones', 'zones'),
    usageColumn('Programs', 'programs'),
    active,
  ],
  fields: [
    { source: 'code', label: 'Code (e.g. US-MN)', required: true, only: 'create' },
    { source: 'name', label: 'Name', required: true },
    { source: 'agencyName', label: 'Agency name', required: true },
    { source: 'agencyUrl', label: 'Agency website', required: true },
    { source: 'licenseYearStartMonth', label: 'License year starts: month', kind: 'number', required: true },
    { source: 'licenseYearStartDay', label: 'License year starts: day', kind: 'number', required: true },
  ],
  facts: (r) => {
    const j = r as unknown as Jurisdiction;
    return [
      ['Agency', `${j.agencyName} (${j.agencyUrl})`],
      ['Usage', `${j.usage.licenseYears} license years, ${j.usage.ruleSets} rule sets, ${j.usage.zones} zones and waters, ${j.usage.emergencyOrders} emergency orders, ${j.usage.programs} Master Angler programs`],
      ...inactiveReason(r),
    ];
  },
  reasonOnCreate: true,
  header: () => <LicenseYearImport />,
};

const zones: RecordScreen = {
  noun: 'zone',
  name: (r) => `${String(r.jurisdictionCode)} ${String(r.name)}`,
  filters: [search('Name contains'), activeFilter, <SelectInput key="kind" source="kind" label="Kind" choices={choices(['State', 'Zone', 'WaterBody'])} alwaysOn />],
  defaultFilter: { active: 'true' },
  page: 'expand',
  manage: 'Regulations.Edit',
  editable: false,
  columns: [
    column('Kind', (r) => String(r.kind)),
    usageColumn('Rule sets', 'ruleSets'),
    usageColumn('Emergency orders', 'emergencyOrders'),
    active,
  ],
  fields: [
    { source: 'jurisdictionId', label: 'Jurisdiction', kind: 'pick', required: true, search: jurisdictionsMatching },
    { source: 'kind', label: 'Kind', kind: 'select', choices: ['Zone', 'WaterBody', 'State'], required: true },
    { source: 'name', label: 'Name', required: true },
    { source: 'sourceUrl', label: 'Source' },
    { source: 'description', label: 'Description', kind: 'long' },
    { source: 'boundary', label: 'Boundary (GeoJSON Polygon or MultiPolygon, WGS 84)', kind: 'json', required: true },
  ],
  reasonOnCreate: true,
  facts: (r) => {
    const z = r as unknown as Zone;
    return [['Description', z.description], ['Source', z.sourceUrl], ['Boundary', `${z.pointCount} points`], ...inactiveReason(r)];
  },
};

const ruleSets: RecordScreen = {
  noun: 'rule set',
  name: (r) => {
    const s = r as unknown as RuleSet;
    return `${s.species.commonName}, ${s.jurisdictionCode} ${s.zoneName ?? 'statewide'} ${s.licenseYear} v${s.version}`;
  },
  filters: [<TextInput key="licenseYear" source="licenseYear" label="License year" alwaysOn />, activeFilter],
  defaultFilter: { active: 'true' },
  page: 'expand',
  manage: 'Regulations.Edit',
  editable: false,
  columns: [
    column('Effective', (r) => `${String(r.effectiveFrom)} – ${typeof r.effectiveTo === 'string' ? r.effectiveTo : 'now'}`),
    column('Daily bag', (r) => String(r.dailyBag ?? '—')),
    column('Minimum length', (r) => inches((r as unknown as RuleSet).minLength) ?? '—'),
    usageColumn('Versions', 'versions'),
    active,
  ],
  fields: [
    ...where(true),
    { source: 'effectiveFrom', label: 'Effective from', kind: 'date', required: true },
    { source: 'dailyBag', label: 'Daily bag', kind: 'number' },
    { source: 'possessionLimit', label: 'Possession limit', kind: 'number' },
    { source: 'minLengthIn', label: 'Minimum length (in)', kind: 'number' },
    { source: 'maxLengthIn', label: 'Maximum length (in)', kind: 'number' },
    { source: 'gear', label: 'Gear rules' },
    { source: 'sourceUrl', label: 'Source (the regulation booklet)', required: true },
    { source: 'notes', label: 'Notes', kind: 'long' },
  ],
  facts: (r) => {
    const s = r as unknown as RuleSet;
    return [
      ['Open seasons', s.openSeasons ? s.openSeasons.map((p) => `${p.from} – ${p.to}`).join(', ') : 'all year'],
      ['Release only', list(s.releaseOnlyPeriods.map((p) => `${p.from} – ${p.to}`))],
      ['Daily bag', s.dailyBag],
      ['Possession limit', s.possessionLimit],
      ['Length', [inches(s.minLength) && `at least ${inches(s.minLength)}`, inches(s.maxLength) && `at most ${inches(s.maxLength)}`].filter(Boolean).join(', ')],
      ['Protected slot', s.protectedSlot ? `${inches(s.protectedSlot.from)} – ${inches(s.protectedSlot.to)}` : null],
      ['Gear', s.gear],
      ['Notes', s.notes],
      ['Source', `${s.source.url} (${s.source.bookletYear})`],
      ['Usage', `${s.usage.versions} versions, ${s.usage.emergencyOrders} emergency orders`],
      ...inactiveReason(r),
    ];
  },
  reasonOnCreate: true,
};

const orders: RecordScreen = {
  noun: 'emergency order',
  name: (r) => `${String(r.jurisdictionCode)} ${String(r.startsOn)} – ${String(r.endsOn)}`,
  filters: [<TextInput key="on" source="on" label="In force on (YYYY-MM-DD)" alwaysOn />, activeFilter],
  defaultFilter: { active: 'true' },
  page: 'expand',
  manage: 'Regulations.Edit',
  editable: false,
  columns: [column('Why', (r) => String(r.reason)), column('Overrides', (r) => overrides(r as unknown as Order)), usageColumn('Rule sets affected', 'ruleSetsAffected'), active],
  fields: [
    ...where(false),
    { source: 'startsOn', label: 'Starts on', kind: 'date', required: true },
    { source: 'endsOn', label: 'Ends on', kind: 'date', required: true },
    { source: 'overrides.closed', label: 'Closed', kind: 'yesno' },
    { source: 'overrides.releaseOnly', label: 'Release only', kind: 'yesno' },
    { source: 'overrides.dailyBag', label: 'Daily bag', kind: 'number' },
    { source: 'overrides.minLengthIn', label: 'Minimum length (in)', kind: 'number' },
    { source: 'sourceUrl', label: 'Source (the order)' },
  ],
  facts: (r) => {
    const o = r as unknown as Order;
    return [['Why', o.reason], ['Overrides', overrides(o)], ['Source', o.sourceUrl], ['Rule sets affected', o.usage.ruleSetsAffected], ...inactiveReason(r)];
  },
  reasonOnCreate: true,
};

function overrides(o: Order): string {
  const v = o.overrides;
  return (
    [v.closed && 'closed', v.releaseOnly && 'release only', v.dailyBag !== undefined && `daily bag ${v.dailyBag}`, v.possessionLimit !== undefined && `possession ${v.possessionLimit}`, v.minLengthIn !== undefined && `at least ${v.minLengthIn} in`, v.maxLengthIn !== undefined && `at most ${v.maxLengthIn} in`]
      .filter(Boolean)
      .join(', ') || '—'
  );
}

const programs: RecordScreen = {
  noun: 'Master Angler program',
  manage: 'Regulations.Edit',
  page: 'expand',
  name: (r) => `${String(r.state)} ${String(r.name)}`,
  filters: [search('Name contains'), activeFilter],
  defaultFilter: { active: 'true' },
  columns: [
    column('Data', (r) => `${String(r.dataStatus)}${r.dataYear ? ` (${String(r.dataYear)})` : ''}`),
    column('Species', (r) => (r as unknown as Program).species.length),
    usageColumn('Submissions', 'submissions'),
    usageColumn('Waiting', 'pending'),
    active,
  ],
  fields: [
    { source: 'jurisdictionId', label: 'Jurisdiction', kind: 'pick', required: true, search: jurisdictionsMatching, only: 'create' },
    { source: 'name', label: 'Name', required: true },
    { source: 'url', label: 'Program page', required: true },
    { source: 'sourceYear', label: 'Source year', kind: 'number', required: true },
    { source: 'measurement', label: 'Measured by', kind: 'select', choices: ['Length', 'Weight', 'Either'], required: true },
    { source: 'lengthIncrementIn', label: 'Length increment (in)', kind: 'number' },
    { source: 'rules', label: 'Rules', kind: 'long' },
    {
      source: 'awardLevels',
      label: 'Award levels',
      kind: 'rows',
      row: 'Award level',
      columns: [
        { source: 'name', label: 'Award', required: true },
        { source: 'speciesCount', label: 'Species needed', kind: 'number', required: true },
      ],
      keep: ['description'],
    },
    {
      source: 'species',
      label: 'Minimum per species (the whole list: a species left out is deactivated, kept for history)',
      kind: 'rows',
      row: 'Species minimum',
      columns: [
        { source: 'speciesId', label: 'Species', kind: 'pick', required: true, search: speciesMatching },
        { source: 'minLengthIn', label: 'Minimum length (in)', kind: 'number' },
        { source: 'minWeightLb', label: 'Minimum weight (lb)', kind: 'number' },
      ],
      keep: ['category', 'notes', 'dataYear', 'sourceUrl'],
      read: (r) => (r as unknown as Program).species.map((s) => ({ ...s, 'speciesId:label': s.commonName })),
    },
  ],
  reasonOnCreate: true,
  facts: (r) => {
    const p = r as unknown as Program;
    return [
      ['Program page', p.url],
      ['Data', `${p.dataStatus}: source ${p.sourceYear}, data ${p.dataYear ?? 'none'}; revision ${p.revision}`],
      ['Measured by', p.measurement],
      ['Award levels', list(p.awardLevels.map((l) => `${l.name} (${l.speciesCount} species)`))],
      ['Species minimums', list(p.species.map((s) => `${s.commonName} ${s.minLengthIn !== null ? `${s.minLengthIn} in` : s.minWeightLb !== null ? `${s.minWeightLb} lb` : ''}`.trim()))],
      ['Submissions', `${p.usage.submissions} (${p.usage.pending} waiting, ${p.usage.approved} approved) by ${p.usage.anglers} anglers`],
      ...inactiveReason(r),
    ];
  },
};

export const { RecordList: RegulationsList, RecordCreate: RegulationsCreate } = recordScreens({
  jurisdictions,
  zones,
  'rule-sets': ruleSets,
  'emergency-orders': orders,
  programs,
});

/**
 * POST /api/admin/regulations/license-years: a license-year file (the format of
 * reference-data/regulations/rules-<year>.json) checked first (`dryRun`: what differs from each
 * jurisdiction's previous year), then loaded with a reason. The API lists every problem of a
 * refused file.
 */
function LicenseYearImport() {
  const { permissions: access } = usePermissions<MyAccess>();
  const { busy, problem, setProblem, run } = useApiAction();
  const [file, setFile] = useState<{ name: string; body: unknown }>();
  const [result, setResult] = useState<ImportResult>();
  const [reason, setReason] = useState('');
  if (!may(access, 'Regulations.Edit')) return null;

  async function choose(chosen: File | undefined) {
    setResult(undefined);
    setProblem(undefined);
    if (!chosen) return setFile(undefined);
    try {
      setFile({ name: chosen.name, body: JSON.parse(await chosen.text()) as unknown });
    } catch {
      setFile(undefined);
      setProblem(`${chosen.name} is not JSON.`);
    }
  }

  async function send(dryRun: boolean) {
    if (!file) return;
    const query = dryRun ? { dryRun: true } : { reason };
    const ok = await run(async () => {
      const answer = await fishlog.POST('/api/admin/regulations/license-years', { params: { query }, body: file.body as never });
      if (answer.data) setResult(answer.data);
      return answer;
    }, dryRun ? `${file.name} checked: nothing written` : `${file.name} loaded`);
    if (ok && !dryRun) setReason('');
  }

  return (
    <Paper component="section" aria-label="Load a license year" sx={{ m: 2, p: 2 }}>
      <Typography component="h2" variant="h6">
        Load a license year
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center', mt: 1 }}>
        <Button variant="outlined" component="label">
          Choose a file…
          <input hidden type="file" accept=".json,application/json" aria-label="License-year file" onChange={(e) => void choose(e.target.files?.[0])} />
        </Button>
        <Typography>{file ? file.name : 'No file chosen'}</Typography>
        <Button variant="outlined" disabled={!file || busy} onClick={() => void send(true)}>
          Check
        </Button>
        <TextField fullWidth={false} size="small" label="Reason for loading it" value={reason} onChange={(e) => setReason(e.target.value)} sx={{ minWidth: 320 }} />
        <Button variant="contained" disabled={!file || busy || reason.trim() === ''} onClick={() => void send(false)}>
          Load
        </Button>
      </Stack>
      <Problem text={problem} sx={{ mt: 1, whiteSpace: 'pre-wrap' }} />
      {result ? <ImportDifferences result={result} /> : null}
    </Paper>
  );
}

function ImportDifferences({ result }: { result: ImportResult }) {
  return (
    <TableSection
      label={result.dryRun ? 'What the file would change (nothing written)' : 'What was loaded'}
      columns={['License year', 'Compared with', 'Waters', 'Rules', 'Added', 'Removed', 'Changed']}
      rows={result.licenseYears.map((y) => ({
        key: `${y.jurisdiction}-${y.year}`,
        cells: [
          `${y.jurisdiction} ${y.year} (${y.startsOn} – ${y.endsOn})`,
          y.previousYear ?? 'none (the first)',
          y.waters,
          y.rules,
          list(y.added),
          list(y.removed),
          list(y.changed.map((c) => `${c.rule}: ${c.fields.map((f) => `${f.field} ${JSON.stringify(f.from)} → ${JSON.stringify(f.to)}`).join(', ')}`)),
        ],
      }))}
    />
  );
}

const open = (s: Submission) => s.status === 'Submitted' || s.status === 'UnderReview';
const decide = (to: 'start-review' | 'approve' | 'reject') => (s: Submission, reason: string | undefined) =>
  fishlog.POST(`/api/admin/regulations/master-angler/submissions/{id}/${to}`, { params: { path: { id: s.id } }, body: reason === undefined ? {} : { reason } });

/** GET /api/admin/regulations/master-angler/submissions: Submitted first (the filter in the URL); start a review, approve or reject with the reason the angler reads. */
export const Submissions = queueScreen<Submission>({
  title: 'Master Angler submissions',
  statuses: ['Submitted', 'UnderReview', 'Approved', 'Rejected'],
  defaultStatus: 'Submitted',
  name: (s) => `${s.species.commonName} for ${s.programName}`,
  subheader: (s) => `${s.status} · attempt ${s.attempt} · submitted ${when(s.createdAt)}`,
  facts: (s) => [
    ['Category', s.category],
    ['Measured', [s.lengthCm !== null && `${s.lengthCm} cm`, s.weightKg !== null && `${s.weightKg} kg`].filter(Boolean).join(', ')],
    ['Caught', `${when(s.caughtAt)}${s.waterBody ? `, ${s.waterBody}` : ''}${s.stateCode ? ` (${s.stateCode})` : ''}`],
    ['Witness', s.witness],
    ['Photo', s.photoUrl],
    ['History', list(s.history.map((h) => `${h.status} ${when(h.at)}${h.reason ? `: ${h.reason}` : ''}`))],
  ],
  reasonLabel: 'Reason the angler reads',
  decisions: [
    { label: 'Start review', done: 'under review', when: (s) => s.status === 'Submitted', permission: 'Regulations.Edit', reason: 'optional', send: decide('start-review') },
    { label: 'Approve', done: 'approved', when: open, permission: 'Regulations.Edit', reason: 'required', send: decide('approve') },
    { label: 'Reject', done: 'rejected', when: open, permission: 'Regulations.Edit', reason: 'required', danger: true, send: decide('reject') },
  ],
  empty: 'No submission waits.',
});
