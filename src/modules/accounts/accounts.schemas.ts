import { Type } from 'typebox';

export const LoginBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 128, examples: ['angler_jo'] }),
    password: Type.String({ minLength: 1, maxLength: 256, examples: ['correct horse battery staple'] }),
  },
  { additionalProperties: false },
);

const refreshToken = Type.String({ minLength: 1, maxLength: 4096, description: 'The refresh_token of the last login or refresh' });

export const RefreshBody = Type.Object({ refreshToken }, { additionalProperties: false });

const REFRESH_TOKEN_EXAMPLE = 'pGz1mV4oXq0b7yK2sJwEo9cT3uR8hLdN6fA5iBnM1vWqZxYk0aS2eD4gH7jP9lUt';

export const LogoutBody = Type.Object(
  {
    refreshToken,
    everywhere: Type.Optional(
      Type.Boolean({ default: false, description: "true: end every sign-in of the refresh token's user, on every device, not only this one" }),
    ),
  },
  { additionalProperties: false, examples: [{ refreshToken: REFRESH_TOKEN_EXAMPLE }, { refreshToken: REFRESH_TOKEN_EXAMPLE, everywhere: true }] },
);

export const TokenResponse = Type.Object(
  {
    access_token: Type.String({ description: 'Access token (do not send it to this API)' }),
    id_token: Type.String({ description: 'Send this one as Authorization: Bearer <id_token>' }),
    refresh_token: Type.String({ description: 'Opaque; renews the tokens with POST /api/auth/refresh (30 days, rotated on every use)' }),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer({ description: 'Lifetime of the id and access tokens in seconds', examples: [3600] }),
  },
  { additionalProperties: false, $id: 'TokenResponse' },
);
