import type { Config } from '../../../config.js';
import type { Db } from '../../db/client.js';
import { LocalIdentityProvider } from './local/local-idp.js';
import type { IdentityProvider } from './types.js';

/** The configured identity provider. */
export async function createIdentityProvider(config: Config, db: Db): Promise<IdentityProvider> {
  if (config.idp.kind === 'local') return new LocalIdentityProvider(db, config.idp);
  const { CognitoIdentityProvider } = await import('./cognito/cognito-idp.js');
  return new CognitoIdentityProvider(config.idp);
}
