/**
 * The session the client keeps: the id token (sent as the bearer), the refresh token and when the
 * id token expires (milliseconds since the epoch, by this device's clock: `expires_in` after it
 * was received).
 */
export interface TokenSet {
  idToken: string;
  refreshToken: string;
  expiresAt: number;
}

/**
 * Where the session is kept. The default keeps it in memory (gone with the page or process);
 * an app supplies secure storage (Keychain/Keystore, an encrypted file, an HttpOnly-cookie
 * backend …). Several clients sharing one store share one session.
 */
export interface TokenStore {
  get(): TokenSet | undefined | Promise<TokenSet | undefined>;
  set(tokens: TokenSet): void | Promise<void>;
  clear(): void | Promise<void>;
}

export function memoryTokenStore(initial?: TokenSet): TokenStore {
  let tokens = initial;
  return {
    get: () => tokens,
    set: (next) => {
      tokens = next;
    },
    clear: () => {
      tokens = undefined;
    },
  };
}
