/** How Drizzle names the columns of every table (property `ownerId` → column `owner_id`): the one setting of every Drizzle handle and of the named statements (prepared.ts). */
export const CASING = 'snake_case' as const;
