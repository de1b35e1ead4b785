import type { DbOrTx } from '../../core/db/client.js';
import { registryKey, type Registries } from '../../core/registries.js';
import type { ServiceDeps } from '../../core/service-deps.js';

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
export type MasterAnglerDetection = (deps: ServiceDeps<DbOrTx>, ownerId: string, catches: readonly EligibilityItem[]) => Promise<EligibleProgram[][]>;

/** The app's detection (`deps.registries`): none until the master-angler module registers it. */
const detection = registryKey('fishing-log.master_angler', (): { detect?: MasterAnglerDetection } => ({}));

export function registerMasterAnglerDetection(deps: { registries: Registries }, detect: MasterAnglerDetection): void {
  deps.registries.of(detection).detect = detect;
}

/** The programs each of several catches of one owner meets the minimum of (its state's and its owner's home state's; the home state is read once at most). */
export async function eligibleProgramsOfCatches(deps: ServiceDeps<DbOrTx>, ownerId: string, catches: readonly EligibilityItem[]): Promise<EligibleProgram[][]> {
  const { detect } = deps.registries.of(detection);
  if (!detect || catches.length === 0) return catches.map(() => []);
  return detect(deps, ownerId, catches);
}
