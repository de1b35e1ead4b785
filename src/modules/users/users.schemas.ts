import { Type } from 'typebox';
import { Uuid } from '../../core/http/schemas.js';

/** A user as other records name them (author, reporter, moderator): id and username. */
export const UserRef = Type.Object({ id: Uuid, username: Type.String() }, { additionalProperties: false, $id: 'UserRef' });
