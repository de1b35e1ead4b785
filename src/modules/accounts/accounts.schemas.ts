import { Type } from 'typebox';

export const LoginBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 128, examples: ['angler_jo'] }),
    password: Type.String({ minLength: 1, maxLength: 256, examples: ['correct horse battery staple'] }),
  },
  { additionalProperties: false },
);

export const RefreshBody = Type.Object(
  { refreshToken: Type.String({ minLength: 1, maxLength: 4096, description: 'The refresh_token of the last login or refresh' }) },
  { additionalProperties: false },
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
