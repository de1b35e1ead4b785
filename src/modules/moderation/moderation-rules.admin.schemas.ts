import { Type, type Static } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';
import { pascalEnum } from '../../core/http/enums.js';
import { ContentTypeEnum, ContentTypeSchema, RuleActionEnum } from './moderation.admin.schemas.js';
import { RULE_KINDS } from './moderation.types.js';

/** Keyword or Regex; `keyword`, `regex` are still accepted. */
export const RuleKindEnum = pascalEnum(
  RULE_KINDS,
  'Keyword: a word or phrase, matched whole, ignoring case, accents and look-alike characters; Regex: a regular expression in RE2 syntax (https://github.com/google/re2/wiki/Syntax: no backreferences, no lookahead or lookbehind), matched ignoring case, in time linear in the text.',
);
const Kind = RuleKindEnum.input;
const Action = RuleActionEnum.input;
const AppliesToOptions = { minItems: 1, maxItems: 2, uniqueItems: true, description: 'What the rule checks: Post, Comment or both' };
const AppliesTo = Type.Array(ContentTypeEnum.input, AppliesToOptions);
const Category = Type.String({ pattern: '^[a-z][a-z0-9/_-]{0,63}$', description: 'Category the queue shows for a match (e.g. spam)' });

export const ModerationRule = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    kind: RuleKindEnum.output,
    pattern: Type.String({ examples: ['sell(ing)?\\s+spots?'] }),
    appliesTo: Type.Array(ContentTypeSchema, AppliesToOptions),
    action: RuleActionEnum.output,
    category: Type.String(),
    reason: Type.Union([Type.String(), Type.Null()], { description: 'Shown to the author when the rule rejects their content' }),
    isActive: Type.Boolean(),
    deactivatedAt: Type.Union([Timestamp, Type.Null()]),
    deactivatedBy: Type.Union([Uuid, Type.Null()]),
    createdBy: Type.Union([Uuid, Type.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    usage: Type.Object(
      {
        matchCount: Type.Integer({ description: 'Posts and comments it matched' }),
        lastMatchedAt: Type.Union([Timestamp, Type.Null()]),
        timeouts: Type.Integer({ description: 'Times it ran out of time under the former time limit (before rules ran on RE2, which needs none); no longer counted' }),
      },
      { additionalProperties: false },
    ),
    patternProblem: Type.Union([Type.String(), Type.Null()], {
      description:
        'Null, or why RE2 cannot compile this regular expression (a rule written before rules took RE2 syntax, with a backreference or lookaround): such a rule does not run, and an active one is deactivated at start-up; rewrite the pattern to reactivate it',
    }),
  },
  { additionalProperties: false, $id: 'ModerationRule' },
);

const fields = {
  name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
  kind: Kind,
  pattern: Type.String({
    minLength: 1,
    maxLength: 500,
    description: 'Keyword: the word or phrase. Regex: RE2 syntax (https://github.com/google/re2/wiki/Syntax); a backreference or lookaround is refused (400 naming `pattern`)',
    examples: ['\\b(cheap|free)\\s+(bait|lures?)\\b'],
  }),
  appliesTo: AppliesTo,
  action: Action,
  category: Category,
  reason: Nullable(Type.String({ minLength: 1, maxLength: 500 }), { description: 'Shown to the author when the rule rejects their content' }),
};

export const CreateRuleBody = Type.Object(
  {
    name: fields.name,
    kind: fields.kind,
    pattern: fields.pattern,
    appliesTo: Type.Optional({ ...fields.appliesTo, description: 'Default: posts and comments' }),
    action: fields.action,
    category: Type.Optional({ ...fields.category, description: 'Default: rule' }),
    reason: Type.Optional(fields.reason),
  },
  { additionalProperties: false },
);

export const UpdateRuleBody = Type.Object(
  {
    name: Type.Optional(fields.name),
    kind: Type.Optional(fields.kind),
    pattern: Type.Optional(fields.pattern),
    appliesTo: Type.Optional(fields.appliesTo),
    action: Type.Optional(fields.action),
    category: Type.Optional(fields.category),
    reason: Type.Optional(fields.reason),
    isActive: Type.Optional(Type.Boolean({ description: 'false deactivates the rule (rules are never deleted); true brings it back' })),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const RulesQuery = listQuery({
  isActive: Type.Optional(Type.Boolean()),
  kind: Type.Optional(Kind),
  action: Type.Optional(Action),
});

/** A create/update body as the service takes it: the stored spellings of kind, action and appliesTo. */
export function ruleInputFromApi<B extends { kind?: string; action?: string; appliesTo?: string[] }>(body: B) {
  return {
    ...body,
    kind: RuleKindEnum.fromApi(body.kind),
    action: RuleActionEnum.fromApi(body.action),
    appliesTo: body.appliesTo?.map((t) => ContentTypeEnum.fromApi(t)),
  };
}

export function createRuleInputFromApi(body: Static<typeof CreateRuleBody>) {
  return { ...ruleInputFromApi(body), kind: RuleKindEnum.fromApi(body.kind), action: RuleActionEnum.fromApi(body.action) };
}
