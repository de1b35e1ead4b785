import type { AuthProvider } from 'react-admin';
import { FishlogProblem, fishlog, loginRoute, problemText } from './api';
import { forgetAccess, myAccess } from './access';

/** react-admin's session: @fishlog/client's sign-in (POST /api/auth/login) and its token refresh. */
export const authProvider: AuthProvider = {
  async login({ username, password }: { username: string; password: string }) {
    forgetAccess();
    const { error } = await fishlog.auth.login(username, password);
    if (error) throw new Error(problemText(error));
  },
  async logout() {
    forgetAccess();
    if (await fishlog.auth.session()) await fishlog.auth.logout();
  },
  async checkAuth() {
    if (!(await fishlog.auth.session())) throw { redirectTo: loginRoute(), message: false };
  },
  async checkError(error: unknown) {
    // 401: the session is over (the client already tried a refresh): sign in again, keeping where the person was.
    if (error instanceof FishlogProblem && error.status === 401) {
      forgetAccess();
      await fishlog.auth.logout();
      throw { redirectTo: loginRoute(), message: false, logoutUser: true };
    }
    // A 403 is the API's refusal: the page shows its text, the session stays.
  },
  async getPermissions() {
    return (await fishlog.auth.session()) ? myAccess() : undefined;
  },
  async getIdentity() {
    const access = await myAccess();
    return { id: access.userId, fullName: `${access.username} (${access.role})` };
  },
};
