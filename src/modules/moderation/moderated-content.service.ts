import type { ServiceDeps } from '../../core/service-deps.js';
import type { DbOrTx } from '../../core/db/client.js';
import { registryKey, type Registries } from '../../core/registries.js';
import type { ContentStatus, ContentType } from './moderation.types.js';

/**
 * The registry of moderated content types: the module owning a kind of content the review queue
 * holds (social: posts and comments) registers, at start-up (the registering module's <module>.module.ts), how a moderator's
 * decision reads and changes it. Moderation never imports that module.
 */

/** A held item as a decision sees it (locked). */
export interface ModeratedItem {
  id: string;
  authorId: string;
  status: ContentStatus;
}

/** A held item as the review queue shows it. */
export interface ItemForReview extends ModeratedItem {
  /** The post the item belongs to: the post itself, or the post a comment is on. */
  postId: string;
  authorUsername: string;
  text: string;
  photoUrls: string[];
  /** Its uploaded photos, whatever their status, linked to the review endpoints (the photos module's `Photo` view). */
  photos: Array<{ id: string; moderationStatus: string; displayUrl: string; thumbnailUrl: string }>;
  createdAt: Date;
}

export interface ModeratedContentType<Item extends ModeratedItem = ModeratedItem> {
  /** Locks the item for a decision (in the decision's transaction); undefined when there is none. */
  lock(tx: DbOrTx, id: string): Promise<Item | undefined>;
  /** Sets the status a moderator decided, with the reason its author sees (rejections). */
  setStatus(tx: DbOrTx, item: Item, status: ContentStatus, reason: string | null): Promise<void>;
  /** The queue's views of these items (ids of items that no longer exist are left out). */
  forReview(deps: ServiceDeps<DbOrTx>, ids: string[]): Promise<ItemForReview[]>;
  /** Tells the author a moderator rejected the item (in the decision's transaction), when the type does. */
  notifyRejection?(tx: DbOrTx, item: Item, reason: string | null): Promise<void>;
}

/** The app's moderated content types (`deps.registries`). */
export const moderatedContentTypes = registryKey('moderation.content', () => new Map<ContentType, ModeratedContentType>());

export function registerModeratedContent<Item extends ModeratedItem>(deps: { registries: Registries }, type: ContentType, access: ModeratedContentType<Item>): void {
  deps.registries.of(moderatedContentTypes).set(type, access as unknown as ModeratedContentType);
}

export function moderatedContent(deps: { registries: Registries }, type: ContentType): ModeratedContentType {
  const access = deps.registries.of(moderatedContentTypes).get(type);
  if (!access) throw new Error(`no moderated content type ${type} is registered (the registering module's <module>.module.ts)`);
  return access;
}
