import type { DbOrTx } from '../../core/db/client.js';

/**
 * Master Angler eligibility of a logged catch. The master-angler module owns the programs and reads
 * the fishing log, so the fishing log cannot import it: the master-angler module's plugin (master-angler.module.ts)
 * registers the detection here at start-up. Without one registered, no catch is eligible.
 */

export interface EligibleProgram {
  programId: string;
  programName: string;
  /** The program's state, ISO 3166-2. */
  state: string;
  category: string;
  qualifiesBy: 'Length' | 'Weight';
  minLengthIn: number | null;
  minWeightLb: number | null;
}

export interface EligibilityQuery {
  ownerId: string;
  speciesId: string;
  lengthCm: number | null;
  weightKg: number | null;
  /** The state the catch was logged in (its entry's), if known. */
  stateCode: string | null;
}

/** A catch of the owner's, as the detection reads it. */
export type EligibilityItem = Omit<EligibilityQuery, 'ownerId'>;

/** The programs each catch of one owner meets the minimum of, in the order given. */
export type MasterAnglerDetection = (db: DbOrTx, ownerId: string, catches: readonly EligibilityItem[]) => Promise<EligibleProgram[][]>;

let detection: MasterAnglerDetection | undefined;

export function registerMasterAnglerDetection(detect: MasterAnglerDetection): void {
  detection = detect;
}

/** The programs a catch meets the minimum of (its state's and its owner's home state's). */
export async function eligiblePrograms(db: DbOrTx, query: EligibilityQuery): Promise<EligibleProgram[]> {
  const { ownerId, ...item } = query;
  return (await eligibleProgramsOfCatches(db, ownerId, [item]))[0]!;
}

/** The same for several catches of one owner at once (a list view): the owner's home state is read once at most. */
export async function eligibleProgramsOfCatches(db: DbOrTx, ownerId: string, catches: readonly EligibilityItem[]): Promise<EligibleProgram[][]> {
  if (!detection || catches.length === 0) return catches.map(() => []);
  return detection(db, ownerId, catches);
}
