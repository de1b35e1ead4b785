import { Type } from 'typebox';

/** The visibility levels of records (the rule itself is in visibility.ts). */
export const VISIBILITIES = ['Public', 'Private', 'Friends', 'Circle'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const VisibilitySchema = Type.Union(
  VISIBILITIES.map((v) => Type.Literal(v)),
  { description: 'Who may see the record: Public (everyone), Private (owner only), Friends (mutual friends), Circle (the owner’s circle)' },
);

/** The scopes of a feed beyond what the visibility rule shows: `friends`, only friends' records (visibility.ts: `friendsOnlyBranchParts`). */
export const FEED_SCOPES = ['friends'] as const;
export type FeedScope = (typeof FEED_SCOPES)[number];

/** The `scope` query parameter of a feed; `what`: the feed's records, e.g. "entries". */
export function feedScopeSchema(what: string) {
  return Type.Union(
    FEED_SCOPES.map((v) => Type.Literal(v)),
    {
      description: `\`friends\`: only your friends' ${what} that you may see (their Public and Friends ones, Circle ones when they put you in their circle): no stranger's Public ones and not your own. Omitted: everything you may see.`,
      examples: ['friends'],
    },
  );
}
