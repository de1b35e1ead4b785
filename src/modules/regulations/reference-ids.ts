import { v5 as uuidv5 } from 'uuid';

/** Ids of regulation records loaded from files (reference data, license-year imports): UUIDv5 of their natural keys. */

const NAMESPACE = 'a4f3d2c1-7b6e-5d4c-8b3a-1f2e3d4c5b6a';
export const regulationId = (key: string) => uuidv5(key, NAMESPACE);
export const jurisdictionId = (code: string) => regulationId(`jurisdiction:${code}`);
export const zoneId = (code: string, name: string) => regulationId(`zone:${code}:${name.toLowerCase()}`);
export const programId = (code: string, name: string) => regulationId(`program:${code}:${name.toLowerCase()}`);
export const licenseYearId = (code: string, year: number) => regulationId(`license-year:${code}:${year}`);
