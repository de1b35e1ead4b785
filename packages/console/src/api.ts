import { createFishlogClient, FishlogProblem, type TokenSet, type TokenStore } from '@fishlog/client';

/**
 * The one way the console calls the API: @fishlog/client on this page's own origin. The session
 * (id token, refresh token, expiry) lives in sessionStorage: it survives a reload of the tab and
 * is gone with the tab; never in localStorage.
 */
const SESSION_KEY = 'fishlog.console.session';

export const sessionStore: TokenStore = {
  get: () => {
    const raw = sessionStorage.getItem(SESSION_KEY);
    return raw === null ? undefined : (JSON.parse(raw) as TokenSet);
  },
  set: (tokens) => sessionStorage.setItem(SESSION_KEY, JSON.stringify(tokens)),
  clear: () => sessionStorage.removeItem(SESSION_KEY),
};

/** Where the person was (the hash route), kept in the sign-in page's URL as `next`. */
export function currentRoute(): string {
  const route = window.location.hash.replace(/^#/, '') || '/';
  return route.startsWith('/login') ? '/' : route;
}

export function loginRoute(next: string = currentRoute()): string {
  return next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`;
}

export const fishlog = createFishlogClient({
  baseUrl: window.location.origin,
  tokenStore: sessionStore,
  onSignOut: (event) => {
    // The server refused the refresh (expired, or reused): back to sign-in, keeping where the person was.
    if (event.reason !== 'logout') window.location.hash = `#${loginRoute()}`;
  },
});

/** A problem's text as the page shows it: title, detail and the request id to quote. */
export function problemText(problem: unknown): string {
  if (problem instanceof FishlogProblem) return `${problem.title}: ${problem.detail}${problem.requestId ? ` (request ${problem.requestId})` : ''}`;
  if (problem instanceof TypeError) return 'The API could not be reached (network failure). Check the connection and retry.';
  return problem instanceof Error ? problem.message : String(problem);
}

export { FishlogProblem };
