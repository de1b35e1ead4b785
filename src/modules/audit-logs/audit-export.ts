import { createInterface } from 'node:readline';
import { Transform } from 'node:stream';
import type { parse as parseCsv } from 'csv-parse/sync';
import { auditSignature, GENESIS_HASH, hashKind, type Hashable } from '../../core/audit/audit.js';
import type { AuditRow } from '../../core/audit/audit.tables.js';

/**
 * The export format of the audit log: every column the chain's HMAC covers plus `id`, `chain`,
 * `prevHash` and `hash`, with the stored values (actorType `user|system`, outcome `success|failure`), so
 * that `fishlog audit verify --file` can recompute each link offline, given FISHLOG_AUDIT_KEY.
 * CSV: a header line, every non-null string quoted (an empty quoted field is "", an unquoted
 * empty field is null), `before`/`after` as JSON text. NDJSON: one JSON object a line. Exports
 * from before chains existed have no `chain` column: every row of theirs is chain 0.
 *
 * The last line is the server's seal: a record with no id, action `export.seal`, the export's
 * summary in `after` (the id range, how many entries, where each chain's piece starts and ends)
 * and its HMAC under the audit key in `hash`. With it, a verifier tells entries removed from or
 * added to the file (even the last ones of a chain) from ids the log never had in that range
 * (writes rolled back after taking their id, sequence values lost in a crash).
 */

export const EXPORT_COLUMNS = [
  'id',
  'occurredAt',
  'actorType',
  'actorUserId',
  'action',
  'targetType',
  'targetId',
  'reason',
  'before',
  'after',
  'ipAddress',
  'userAgent',
  'requestId',
  'outcome',
  'chain',
  'prevHash',
  'hash',
] as const;

/** Columns an export may lack: it was written before they existed. */
const OPTIONAL_COLUMNS: ReadonlySet<string> = new Set(['chain']);

export interface ExportRecord {
  /** null on the seal (the last line). */
  id: number;
  occurredAt: string;
  actorType: string;
  actorUserId: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  reason: string | null;
  before: unknown;
  after: unknown;
  ipAddress: string | null;
  userAgent: string | null;
  requestId: string | null;
  outcome: string;
  chain: number;
  prevHash: string;
  hash: string;
}

/** A database row (as node-postgres returns it, camel-cased by the query) → an export record. */
export function toRecord(row: AuditRow): ExportRecord {
  return {
    id: Number(row.id),
    occurredAt: new Date(row.occurredAt).toISOString(),
    actorType: row.actorType,
    actorUserId: row.actorUserId,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    reason: row.reason,
    before: row.before ?? null,
    after: row.after ?? null,
    ipAddress: row.ipAddress,
    userAgent: row.userAgent,
    requestId: row.requestId,
    outcome: row.outcome,
    chain: Number(row.chain),
    prevHash: row.prevHash,
    hash: row.hash,
  };
}

/** The action of the seal record, the export's last line. */
export const SEAL_ACTION = 'export.seal';
const SEAL_DOMAIN = 'audit-export-seal';

/** What the seal states about an export, as the server streamed it. */
export interface ExportSeal {
  /** The id range the export covers (every entry of the log in it, when the export was taken). */
  firstId: number;
  lastId: number;
  entries: number;
  chains: Record<string, ExportChain>;
}

/** Adds a record to its chain's piece (the first record of a chain starts it). */
function extendChain(chains: Record<string, ExportChain>, record: ExportRecord): void {
  const last = { id: record.id, hash: record.hash };
  const piece = chains[record.chain];
  if (piece) piece.last = last;
  else chains[record.chain] = { first: { id: record.id, prevHash: record.prevHash }, last };
}

/** Summarises records as they pass: the seal's content. */
function sealer(range: { firstId: number; lastId: number } | null, key: Buffer) {
  const seal: ExportSeal = { firstId: range?.firstId ?? 0, lastId: range?.lastId ?? 0, entries: 0, chains: {} };
  return {
    add(record: ExportRecord): void {
      seal.entries++;
      extendChain(seal.chains, record);
    },
    record(): Record<string, unknown> {
      const empty = Object.fromEntries(EXPORT_COLUMNS.map((c) => [c, null]));
      return { ...empty, action: SEAL_ACTION, after: seal, hash: auditSignature(SEAL_DOMAIN, seal, key) };
    },
  };
}

/**
 * Object stream of AuditRow → text stream of the format, ending with the seal of what passed,
 * signed with the audit key `key`; `range` is the id range exported (null: nothing to export).
 */
export async function exportFormatter(format: 'csv' | 'ndjson', range: { firstId: number; lastId: number } | null, key: Buffer): Promise<Transform> {
  const seal = sealer(range, key);
  if (format === 'ndjson') {
    return new Transform({
      writableObjectMode: true,
      transform(row: AuditRow, _encoding, done) {
        const record = toRecord(row);
        seal.add(record);
        done(null, `${JSON.stringify(record)}\n`);
      },
      flush(done) {
        done(null, `${JSON.stringify(seal.record())}\n`);
      },
    });
  }
  // The CSV libraries load with the first CSV export or check, not at every start of the service.
  const { stringify } = await import('csv-stringify/sync');
  const line = (record: Record<string, unknown>) =>
    stringify(
      [
        EXPORT_COLUMNS.map((column) => {
          const value = record[column];
          return (column === 'before' || column === 'after') && value !== null ? JSON.stringify(value) : value;
        }),
      ],
      { quoted_string: true },
    );
  let headerSent = false;
  const HEADER = `${EXPORT_COLUMNS.join(',')}\n`;
  return new Transform({
    writableObjectMode: true,
    transform(row: AuditRow, _encoding, done) {
      const record = toRecord(row);
      seal.add(record);
      const header = headerSent ? '' : HEADER;
      headerSent = true;
      done(null, header + line(record as unknown as Record<string, unknown>));
    },
    flush(done) {
      done(null, (headerSent ? '' : HEADER) + line(seal.record()));
    },
  });
}

/** A record read back from a file → the hashed content and the hash. */
export function fromRecord(record: ExportRecord): Hashable & { hash: string } {
  return {
    occurredAt: new Date(record.occurredAt),
    actorType: record.actorType as Hashable['actorType'],
    actorUserId: record.actorUserId,
    action: record.action,
    targetType: record.targetType,
    targetId: record.targetId,
    reason: record.reason,
    before: record.before,
    after: record.after,
    ipAddress: record.ipAddress,
    userAgent: record.userAgent,
    requestId: record.requestId,
    outcome: record.outcome as Hashable['outcome'],
    chain: record.chain,
    prevHash: record.prevHash,
    hash: record.hash,
  };
}

/** Where an export's piece of one chain starts and ends. */
export interface ExportChain {
  first: { id: number; prevHash: string };
  last: { id: number; hash: string };
}

export interface ExportVerification {
  checked: number;
  legacy: number;
  first?: { id: number };
  last?: { id: number };
  /** Each chain's piece, keyed by the chain's number. */
  chains: Record<string, ExportChain>;
  /** The server's seal, when the export ends with one (every export since chains exist). */
  sealed?: { firstId: number; lastId: number };
  /** Ids of the sealed range without an entry in the export (rolled back after taking their id, or lost in a crash). */
  absentIds: number;
  brokenAt?: { line: number; id: number | null; reason: string };
}

function isSeal(record: ExportRecord): boolean {
  return record.action === SEAL_ACTION && (record.id === null || record.id === undefined || Number.isNaN(record.id));
}

/** Where the records and the seal disagree, or null. */
function sealMismatch(seal: ExportSeal, report: ExportVerification): string | null {
  if (seal.entries !== report.checked) return `the seal counts ${seal.entries} entries, the file holds ${report.checked}: entries were removed or added`;
  const chains = new Set([...Object.keys(seal.chains), ...Object.keys(report.chains)]);
  for (const chain of chains) {
    const sealed = seal.chains[chain];
    const found = report.chains[chain];
    if (!sealed || !found || sealed.first.id !== found.first.id || sealed.first.prevHash !== found.first.prevHash || sealed.last.id !== found.last.id || sealed.last.hash !== found.last.hash) {
      return `chain ${chain} does not start or end where the seal says (entries were removed, added or replaced)`;
    }
  }
  if (report.first && (report.first.id < seal.firstId || report.last!.id > seal.lastId)) return `entries lie outside the sealed range #${seal.firstId} to #${seal.lastId}`;
  return null;
}

/**
 * Recomputes the chains of an export: each record's HMAC under `key`, that each record links to
 * the one before it in its chain, and that the whole matches the seal on the last line (signed
 * with the same key): how many entries, and where each chain's piece starts and ends. An export
 * from before seals existed (no `chain` column) must have consecutive ids instead. The first
 * record of each chain gives the prevHash where the export joins that chain (64 zeros when the
 * chain starts in the export): compare it with the entry before it in the database or in an
 * earlier export.
 */
export async function verifyExport(records: AsyncIterable<{ line: number; record: ExportRecord | Error }>, key: Buffer): Promise<ExportVerification> {
  const report: ExportVerification = { checked: 0, legacy: 0, chains: {}, absentIds: 0 };
  let previous: ExportRecord | undefined;
  let keyed = false;
  let chained = false;
  let seal: { line: number; value: ExportSeal } | undefined;
  for await (const { line, record: read } of records) {
    const broken = (id: number | null, reason: string): ExportVerification => ({ ...report, brokenAt: { line, id, reason } });
    if (read instanceof Error) return broken(null, `it cannot be read: ${read.message}`);
    if (seal) return broken(read.id ?? null, 'it comes after the seal, which must be the last line');
    if (isSeal(read)) {
      if (auditSignature(SEAL_DOMAIN, read.after, key) !== read.hash) return broken(null, 'the seal does not match its HMAC (it was altered, or the key is not the one the log was written with)');
      seal = { line, value: read.after as ExportSeal };
      continue;
    }
    chained ||= read.chain !== undefined && read.chain !== null;
    const record = { ...read, chain: read.chain ?? 0 };
    if (!Number.isInteger(record.chain) || record.chain < 0) return broken(record.id, `its chain (${String(read.chain)}) is not a chain number`);
    const piece = report.chains[record.chain];
    if (previous === undefined) {
      report.first = { id: record.id };
      if (record.id === 1 && record.prevHash !== GENESIS_HASH) return broken(record.id, 'the first entry of the log must link to the genesis hash (64 zeros)');
    } else if (!chained && record.id !== previous.id + 1) {
      return broken(record.id, `entry ${previous.id + 1} is missing (ids jump from ${previous.id} to ${record.id})`);
    } else if (record.id <= previous.id) {
      return broken(record.id, `entries are out of order (#${record.id} after #${previous.id})`);
    }
    if (piece && record.prevHash !== piece.last.hash) {
      return broken(record.id, `its prevHash does not match the hash of the previous entry of chain ${record.chain} (an entry was removed, inserted or reordered)`);
    }
    let kind: ReturnType<typeof hashKind>;
    try {
      kind = hashKind(fromRecord(record), key);
    } catch (error) {
      return broken(record.id, `its fields are malformed (${(error as Error).message})`);
    }
    if (kind === 'keyed') keyed = true;
    else if (kind === 'legacy' && !keyed) report.legacy++;
    else return broken(record.id, 'its content does not match its HMAC (the entry was altered, or the key is not the one the log was written with)');
    report.checked++;
    report.last = { id: record.id };
    extendChain(report.chains, record);
    previous = record;
  }
  if (seal) {
    const mismatch = sealMismatch(seal.value, report);
    if (mismatch) return { ...report, brokenAt: { line: seal.line, id: null, reason: mismatch } };
    report.sealed = { firstId: seal.value.firstId, lastId: seal.value.lastId };
    report.absentIds = report.checked === 0 ? 0 : seal.value.lastId - seal.value.firstId + 1 - report.checked;
  } else if (chained) {
    return { ...report, brokenAt: { line: 0, id: null, reason: 'the export does not end with its seal: it was cut off' } };
  }
  return report;
}

/** Reads an export (CSV or NDJSON, told apart by its first character) as records with their line numbers. */
export async function* readExport(input: NodeJS.ReadableStream): AsyncGenerator<{ line: number; record: ExportRecord | Error }> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let format: 'csv' | 'ndjson' | undefined;
  let parse: typeof parseCsv | undefined;
  let header: string[] | undefined;
  let lineNumber = 0;
  let pending = '';
  let pendingStart = 0;
  for await (const text of lines) {
    lineNumber++;
    if (format === undefined) {
      if (text.trim() === '') continue;
      format = text.trimStart().startsWith('{') ? 'ndjson' : 'csv';
      if (format === 'csv') parse = (await import('csv-parse/sync')).parse;
    }
    if (format === 'ndjson') {
      if (text.trim() === '') continue;
      try {
        yield { line: lineNumber, record: JSON.parse(text) as ExportRecord };
      } catch (error) {
        yield { line: lineNumber, record: error as Error };
      }
      continue;
    }
    // CSV: a quoted field may span lines; gather until the quotes balance.
    if (pending === '') pendingStart = lineNumber;
    pending = pending === '' ? text : `${pending}\n${text}`;
    if ((pending.match(/"/g)?.length ?? 0) % 2 === 1) continue;
    const source = pending;
    pending = '';
    if (source.trim() === '') continue;
    let cells: Array<string | null> | undefined;
    try {
      [cells] = parse!(source, { cast: (value, context) => (context.quoting ? value : value === '' ? null : value) }) as Array<Array<string | null>>;
    } catch (error) {
      yield { line: pendingStart, record: error as Error };
      continue;
    }
    if (!cells) continue;
    if (!header) {
      header = cells.map(String);
      const missing = EXPORT_COLUMNS.filter((c) => !OPTIONAL_COLUMNS.has(c) && !header!.includes(c));
      if (missing.length > 0) yield { line: pendingStart, record: new Error(`the header lacks ${missing.join(', ')}`) };
      continue;
    }
    try {
      const row = cells;
      const raw = Object.fromEntries(header.map((name, i) => [name, row[i] ?? null]));
      yield {
        line: pendingStart,
        record: {
          ...(raw as unknown as ExportRecord),
          id: raw.id === null ? (null as unknown as number) : Number(raw.id),
          // absent from the header: an export from before chains (undefined); empty: the seal (null)
          chain: (raw.chain === undefined || raw.chain === null ? raw.chain : Number(raw.chain)) as number,
          before: raw.before === null ? null : (JSON.parse(raw.before!) as unknown),
          after: raw.after === null ? null : (JSON.parse(raw.after!) as unknown),
        },
      };
    } catch (error) {
      yield { line: pendingStart, record: error as Error };
    }
  }
  if (pending !== '') yield { line: pendingStart, record: new Error('the file ends inside a quoted field') };
}
