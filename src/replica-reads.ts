/**
 * The routes whose handlers may read from a read replica (DATABASE_REPLICA_URLS;
 * src/core/db/replicas.ts): GET routes whose answer may be a little stale — feeds, lists, searches,
 * public views, leaderboards, nearby searches, the dashboard's analytics. The caller's own writes are
 * still seen (read-your-writes). Everything else reads from the primary: writes and the reads of
 * write requests, transactions, the idempotency and payment look-ups, the job queue, cache loads,
 * authentication, one's own profile (`/api/userprofile/me`, kept in a cache) and bookings.
 * docs/deployment.md lists them; `src/core/db/replicas.test.ts` checks each is a GET route of the app.
 */
export const REPLICA_READ_ROUTES: readonly string[] = [
  // fishing log: the entries feed and entry views, catches, sessions
  'GET /api/fishinglog/entries',
  'GET /api/fishinglog/entries/:id',
  'GET /api/fishinglog/entries/:entryId/catches',
  'GET /api/fishinglog/entries/:entryId/catches/:catchId',
  'GET /api/fishinglog/sessions',
  // social: the posts feed, a post and its comments, user search, friends
  'GET /api/social/posts',
  'GET /api/social/posts/:id',
  'GET /api/social/posts/:id/comments',
  'GET /api/social/users',
  'GET /api/social/friends',
  // profiles and personal bests of others
  'GET /api/userprofile/:userId',
  'GET /api/userprofile/:userId/personal-bests',
  'GET /api/userprofile/:userId/ultimate-pb',
  // reference data: species, brands, regulations
  'GET /api/fish-species',
  'GET /api/fish-species/:id',
  'GET /api/fish-species/families',
  'GET /api/brands',
  'GET /api/brands/:id',
  'GET /api/regulations/by-location',
  'GET /api/regulations/master-angler/:stateId',
  // community: nearby searches and public views
  'GET /api/spots/nearby',
  'GET /api/spots/:id',
  'GET /api/reports/by-location',
  'GET /api/reports/:id',
  'GET /api/events',
  'GET /api/events/:id',
  'GET /api/clubs',
  'GET /api/clubs/:id',
  // tournaments: lists, views, the leaderboard
  'GET /api/tournament',
  'GET /api/tournament/:id',
  'GET /api/tournament/:tournamentId/results',
  'GET /api/charter/listings',
  'GET /api/charter/listings/:id',
  // the dashboard's analytics
  'GET /api/admin/dashboard/overview',
  'GET /api/admin/dashboard/analytics/user-growth',
  'GET /api/admin/dashboard/analytics/revenue',
  'GET /api/admin/dashboard/analytics/popular',
];
