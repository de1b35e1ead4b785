/** The social module's public read model: the friend edges (a friendship is both edges), for offline sync's friends table; never to write. */
export { friendLinks } from './friends.tables.js';
