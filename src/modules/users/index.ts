/**
 * The users module's public read model for other modules (with users.service.ts): the \`users\`
 * table for joins (usernames), never to write; its error factories.
 */
export { users, type UserRow } from './users.tables.js';
export { UserErrors } from './users.errors.js';
