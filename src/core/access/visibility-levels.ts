import { Type } from 'typebox';

/** The visibility levels of records (the rule itself is in visibility.ts). */
export const VISIBILITIES = ['Public', 'Private', 'Friends', 'Circle'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const VisibilitySchema = Type.Union(
  VISIBILITIES.map((v) => Type.Literal(v)),
  { description: 'Who may see the record: Public (everyone), Private (owner only), Friends (mutual friends), Circle (the owner’s circle)' },
);
