import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';

/**
 * A loopback stand-in for the Amazon Cognito user pool endpoint, for tests: nothing leaves the
 * machine. It speaks the AWS JSON 1.1 protocol the SDK uses (POST /, `x-amz-target`, errors as
 * `{"__type": ..., "message": ...}`), answers InitiateAuth (USER_PASSWORD_AUTH,
 * REFRESH_TOKEN_AUTH), AdminGetUser, RevokeToken and GlobalSignOut, issues Cognito-shaped RS256 tokens and serves its JWKS
 * at `/<poolId>/.well-known/jwks.json`.
 *
 * Use it with `IDP=cognito COGNITO_ENDPOINT=<url> COGNITO_USER_POOL_ID=<poolId>
 * COGNITO_CLIENT_ID=<clientId> AWS_REGION=<region>` (and COGNITO_CLIENT_SECRET when started with one).
 */

export interface StandInOptions {
  region?: string;
  poolId?: string;
  clientId?: string;
  /** When set, InitiateAuth demands a correct SECRET_HASH, like an app client with a secret. */
  clientSecret?: string;
}

export interface StandInUser {
  username: string;
  password: string;
  sub: string;
  email: string;
  enabled: boolean;
  confirmed: boolean;
  /** Answers the login with this challenge instead of tokens (e.g. NEW_PASSWORD_REQUIRED). */
  challenge?: string;
  /** Answers the login with PasswordResetRequiredException. */
  passwordResetRequired?: boolean;
}

export interface StandInFailure {
  type: string;
  status?: number;
  message?: string;
}

export interface CognitoStandIn {
  url: string;
  region: string;
  poolId: string;
  clientId: string;
  clientSecret: string | undefined;
  /** The regional issuer every token carries. */
  issuer: string;
  kid: string;
  jwks: { keys: JWK[] };
  /** The signing key's public half as PEM, for crafting HS256 key-confusion tokens. */
  publicKeyPem: string;
  /** Operation names received, in order (`InitiateAuth`, `AdminGetUser`, ...). */
  calls: string[];
  addUser(user: Partial<StandInUser> & { username: string; password: string }): StandInUser;
  setEnabled(username: string, enabled: boolean): void;
  /** Makes every call of this operation fail with the given error until called with undefined. */
  fail(operation: string, failure: StandInFailure | undefined): void;
  /**
   * Signs an RS256 token with the pool's key: a valid id token of a made-up user, with
   * `claimsOverride` merged over it (a claim set to undefined is removed) and `headerOverride`
   * merged over the header `{ alg: 'RS256', kid, typ: 'JWT' }`.
   */
  sign(claimsOverride?: Record<string, unknown>, headerOverride?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';
const TOKEN_LIFETIME_SECONDS = 3600;

class CognitoError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

type Body = Record<string, unknown>;

export async function startCognitoStandIn(options: StandInOptions = {}): Promise<CognitoStandIn> {
  const region = options.region ?? 'eu-west-1';
  const poolId = options.poolId ?? `${region}_StandIn1`;
  const clientId = options.clientId ?? 'fishlog-stand-in-client';
  const clientSecret = options.clientSecret;
  const issuer = `https://cognito-idp.${region}.amazonaws.com/${poolId}`;

  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const kid = randomBytes(16).toString('base64');
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }] };
  const publicKeyPem = await exportSPKI(publicKey);

  const users = new Map<string, StandInUser>();
  const refreshTokens = new Map<string, string>();
  /** Access tokens issued and not signed out: the user (lower case) and the refresh token they came from. */
  const accessTokens = new Map<string, { owner: string; origin: string }>();
  const failures = new Map<string, StandInFailure>();
  const calls: string[] = [];

  // Admin operations name the user by username or, as Cognito allows, by sub.
  const findUser = (username: unknown) =>
    typeof username === 'string' ? (users.get(username.toLowerCase()) ?? [...users.values()].find((user) => user.sub === username)) : undefined;

  async function signToken(payload: Record<string, unknown>, header: Record<string, unknown> = {}): Promise<string> {
    const protectedHeader = { alg: 'RS256', kid, typ: 'JWT', ...header };
    return new SignJWT(payload as JWTPayload).setProtectedHeader(protectedHeader as { alg: string }).sign(privateKey);
  }

  function idClaims(user: Pick<StandInUser, 'sub' | 'username' | 'email'>, authTime: number): Record<string, unknown> {
    const now = Math.floor(Date.now() / 1000);
    return {
      sub: user.sub,
      email_verified: true,
      iss: issuer,
      'cognito:username': user.username,
      origin_jti: randomUUID(),
      aud: clientId,
      event_id: randomUUID(),
      token_use: 'id',
      auth_time: authTime,
      exp: now + TOKEN_LIFETIME_SECONDS,
      iat: now,
      jti: randomUUID(),
      email: user.email,
    };
  }

  function accessClaims(user: StandInUser, authTime: number): Record<string, unknown> {
    const now = Math.floor(Date.now() / 1000);
    return {
      sub: user.sub,
      iss: issuer,
      client_id: clientId,
      origin_jti: randomUUID(),
      event_id: randomUUID(),
      token_use: 'access',
      scope: 'aws.cognito.signin.user.admin',
      auth_time: authTime,
      exp: now + TOKEN_LIFETIME_SECONDS,
      iat: now,
      jti: randomUUID(),
      username: user.username,
    };
  }

  /** Tokens of `user` from the refresh token `origin`; `refreshToken` is answered too when set (a login). */
  async function authenticationResult(user: StandInUser, origin: string, refreshToken: string | undefined) {
    const authTime = Math.floor(Date.now() / 1000);
    const accessToken = await signToken(accessClaims(user, authTime));
    accessTokens.set(accessToken, { owner: user.username.toLowerCase(), origin });
    return {
      AuthenticationResult: {
        AccessToken: accessToken,
        ExpiresIn: TOKEN_LIFETIME_SECONDS,
        IdToken: await signToken(idClaims(user, authTime)),
        ...(refreshToken ? { RefreshToken: refreshToken } : {}),
        TokenType: 'Bearer',
      },
      ChallengeParameters: {},
    };
  }

  function checkSecretHash(username: string, presented: unknown): void {
    if (!clientSecret) return;
    const expected = createHmac('sha256', clientSecret).update(username + clientId).digest();
    const given = typeof presented === 'string' ? Buffer.from(presented, 'base64') : Buffer.alloc(0);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new CognitoError('NotAuthorizedException', `Unable to verify secret hash for client ${clientId}`);
    }
  }

  async function passwordAuth(parameters: Body) {
    const user = findUser(parameters.USERNAME);
    if (!user) throw new CognitoError('UserNotFoundException', 'User does not exist.');
    checkSecretHash(user.username, parameters.SECRET_HASH);
    if (parameters.PASSWORD !== user.password) throw new CognitoError('NotAuthorizedException', 'Incorrect username or password.');
    if (!user.enabled) throw new CognitoError('NotAuthorizedException', 'User is disabled.');
    if (!user.confirmed) throw new CognitoError('UserNotConfirmedException', 'User is not confirmed.');
    if (user.passwordResetRequired) throw new CognitoError('PasswordResetRequiredException', 'Password reset required for the user');
    if (user.challenge) {
      return { ChallengeName: user.challenge, Session: randomBytes(32).toString('base64url'), ChallengeParameters: { USER_ID_FOR_SRP: user.username } };
    }
    const refreshToken = randomBytes(96).toString('base64url');
    refreshTokens.set(refreshToken, user.username.toLowerCase());
    return authenticationResult(user, refreshToken, refreshToken);
  }

  /** Like Cognito without refresh-token rotation: new id and access tokens, no new refresh token. */
  async function refreshAuth(parameters: Body) {
    const owner = typeof parameters.REFRESH_TOKEN === 'string' ? refreshTokens.get(parameters.REFRESH_TOKEN) : undefined;
    const user = owner ? users.get(owner) : undefined;
    if (!user) throw new CognitoError('NotAuthorizedException', 'Invalid Refresh Token');
    checkSecretHash(user.username, parameters.SECRET_HASH);
    if (!user.enabled) throw new CognitoError('NotAuthorizedException', 'User is disabled.');
    return authenticationResult(user, parameters.REFRESH_TOKEN as string, undefined);
  }

  /** Ends the refresh token and the access tokens issued from it; like RFC 7009, a token it does not know is no error. */
  function revokeToken(body: Body) {
    if (body.ClientId !== clientId) throw new CognitoError('UnauthorizedException', 'Client is not authorized to revoke this token.');
    if (clientSecret && body.ClientSecret !== clientSecret) throw new CognitoError('UnauthorizedException', 'Client secret is not valid.');
    if (typeof body.Token !== 'string' || !/^[A-Za-z0-9-_=.]+$/.test(body.Token)) throw new CognitoError('InvalidParameterException', 'Token is not valid.');
    refreshTokens.delete(body.Token);
    for (const [token, issued] of accessTokens) if (issued.origin === body.Token) accessTokens.delete(token);
    return {};
  }

  /** Ends every refresh and access token of the access token's user. */
  function globalSignOut(body: Body) {
    const issued = typeof body.AccessToken === 'string' ? accessTokens.get(body.AccessToken) : undefined;
    if (!issued) throw new CognitoError('NotAuthorizedException', 'Access Token has been revoked');
    for (const [token, owner] of refreshTokens) if (owner === issued.owner) refreshTokens.delete(token);
    for (const [token, other] of accessTokens) if (other.owner === issued.owner) accessTokens.delete(token);
    return {};
  }

  async function initiateAuth(body: Body) {
    if (body.ClientId !== clientId) throw new CognitoError('ResourceNotFoundException', `User pool client ${String(body.ClientId)} does not exist.`);
    const parameters = (body.AuthParameters ?? {}) as Body;
    if (body.AuthFlow === 'USER_PASSWORD_AUTH') return passwordAuth(parameters);
    if (body.AuthFlow === 'REFRESH_TOKEN_AUTH' || body.AuthFlow === 'REFRESH_TOKEN') return refreshAuth(parameters);
    throw new CognitoError('InvalidParameterException', `Auth flow ${String(body.AuthFlow)} is not enabled for this client.`);
  }

  function adminGetUser(body: Body, request: IncomingMessage) {
    // Admin operations are signed with AWS credentials; the stand-in checks only that they are.
    if (!request.headers.authorization) throw new CognitoError('MissingAuthenticationTokenException', 'Missing Authentication Token');
    if (body.UserPoolId !== poolId) throw new CognitoError('ResourceNotFoundException', `User pool ${String(body.UserPoolId)} does not exist.`);
    const user = findUser(body.Username);
    if (!user) throw new CognitoError('UserNotFoundException', 'User does not exist.');
    return {
      Username: user.username,
      UserAttributes: [
        { Name: 'sub', Value: user.sub },
        { Name: 'email', Value: user.email },
        { Name: 'email_verified', Value: 'true' },
      ],
      Enabled: user.enabled,
      UserStatus: user.confirmed ? 'CONFIRMED' : 'UNCONFIRMED',
      UserCreateDate: 1_700_000_000,
      UserLastModifiedDate: 1_700_000_000,
    };
  }

  /** Deletes the user (AdminDeleteUser) and ends their refresh and access tokens. */
  function adminDeleteUser(body: Body, request: IncomingMessage) {
    if (!request.headers.authorization) throw new CognitoError('MissingAuthenticationTokenException', 'Missing Authentication Token');
    if (body.UserPoolId !== poolId) throw new CognitoError('ResourceNotFoundException', `User pool ${String(body.UserPoolId)} does not exist.`);
    const user = findUser(body.Username);
    if (!user) throw new CognitoError('UserNotFoundException', 'User does not exist.');
    const owner = user.username.toLowerCase();
    users.delete(owner);
    for (const [token, other] of refreshTokens) if (other === owner) refreshTokens.delete(token);
    for (const [token, issued] of accessTokens) if (issued.owner === owner) accessTokens.delete(token);
    return {};
  }

  /** Ends every refresh and access token of the user (AdminUserGlobalSignOut). */
  function adminUserGlobalSignOut(body: Body, request: IncomingMessage) {
    if (!request.headers.authorization) throw new CognitoError('MissingAuthenticationTokenException', 'Missing Authentication Token');
    const user = findUser(body.Username);
    if (!user) throw new CognitoError('UserNotFoundException', 'User does not exist.');
    const owner = user.username.toLowerCase();
    for (const [token, other] of refreshTokens) if (other === owner) refreshTokens.delete(token);
    for (const [token, issued] of accessTokens) if (issued.owner === owner) accessTokens.delete(token);
    return {};
  }

  async function dispatch(operation: string, body: Body, request: IncomingMessage): Promise<unknown> {
    const failure = failures.get(operation);
    if (failure) throw new CognitoError(failure.type, failure.message ?? failure.type, failure.status ?? 400);
    if (operation === 'InitiateAuth') return initiateAuth(body);
    if (operation === 'AdminGetUser') return adminGetUser(body, request);
    if (operation === 'AdminDeleteUser') return adminDeleteUser(body, request);
    if (operation === 'AdminUserGlobalSignOut') return adminUserGlobalSignOut(body, request);
    if (operation === 'RevokeToken') return revokeToken(body);
    if (operation === 'GlobalSignOut') return globalSignOut(body);
    throw new CognitoError('UnknownOperationException', `Operation ${operation} is not supported by the stand-in`);
  }

  function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    response.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': randomUUID(), ...headers });
    response.end(JSON.stringify(body));
  }

  async function readBody(request: IncomingMessage): Promise<Body> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const parsed: unknown = text ? JSON.parse(text) : {};
    if (typeof parsed !== 'object' || parsed === null) throw new CognitoError('SerializationException', 'Body is not a JSON object');
    return parsed as Body;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method === 'GET' && request.url === `/${poolId}/.well-known/jwks.json`) {
      send(response, 200, jwks, { 'content-type': 'application/json' });
      return;
    }
    const target = request.headers['x-amz-target'];
    if (request.method !== 'POST' || typeof target !== 'string' || !target.startsWith(TARGET_PREFIX)) {
      send(response, 404, { __type: 'UnknownOperationException', message: 'Not found' });
      return;
    }
    const operation = target.slice(TARGET_PREFIX.length);
    calls.push(operation);
    try {
      send(response, 200, await dispatch(operation, await readBody(request), request));
    } catch (error) {
      const failure = error instanceof CognitoError ? error : new CognitoError('InternalErrorException', String(error), 500);
      send(response, failure.status, { __type: failure.type, message: failure.message }, { 'x-amzn-errortype': failure.type });
    }
  }

  const server = createServer((request, response) => {
    void handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    region,
    poolId,
    clientId,
    clientSecret,
    issuer,
    kid,
    jwks,
    publicKeyPem,
    calls,
    addUser(input) {
      const user: StandInUser = { sub: randomUUID(), email: `${input.username.toLowerCase()}@example.test`, enabled: true, confirmed: true, ...input };
      users.set(user.username.toLowerCase(), user);
      return user;
    },
    setEnabled(username, enabled) {
      const user = findUser(username);
      if (!user) throw new Error(`stand-in: no user ${username}`);
      user.enabled = enabled;
    },
    fail(operation, failure) {
      if (failure) failures.set(operation, failure);
      else failures.delete(operation);
    },
    async sign(claimsOverride = {}, headerOverride = {}) {
      const crafted = { sub: randomUUID(), username: 'crafted-user', email: 'crafted-user@example.test' };
      const claims: Record<string, unknown> = { ...idClaims(crafted, Math.floor(Date.now() / 1000)), ...claimsOverride };
      for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
      return signToken(claims, headerOverride);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Short alias of startCognitoStandIn. */
export const start = startCognitoStandIn;
