/**
 * The users module's public read model for other modules (with users.service.ts): the \`users\`
 * table for joins (usernames), never to write; its error factories; the schemas of a user named in
 * another record, and of a user and a ban as the administration sees them (the user details build on them).
 */
export { users, type UserRow } from './users.tables.js';
export { UserErrors } from './users.errors.js';
export { UserRef } from './users.schemas.js';
export { AdminUser } from './users.admin.schemas.js';
export { Appeal, Ban } from './bans.schemas.js';
