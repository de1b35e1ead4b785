import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { lifecycleValues, setActive, type Lifecycle } from '../../core/admin/lifecycle.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import type { Page } from '../../core/http/pagination.js';
import { AppError } from '../../core/http/problem.js';
import { validationFailed } from '../../core/http/error-handler.js';
import { ModerationErrors } from './moderation.errors.js';
import * as repo from './moderation.repository.js';
import type { ModerationRuleRow } from './moderation.tables.js';
import type { ContentType, RuleAction, RuleKind } from './moderation.types.js';
import { patternProblem } from './rule-regex.js';
import { RuleKindEnum } from './moderation-rules.admin.schemas.js';
import { ContentTypeEnum, RuleActionEnum } from './moderation.admin.schemas.js';

/**
 * Moderation rules for admins: create, change, deactivate (never delete), list with usage.
 * Regular expressions take RE2's syntax: one RE2 cannot compile (backreferences, lookaround) is
 * refused (400 naming `pattern`); stored ones it cannot compile are shown with `patternProblem`
 * and deactivated at start-up.
 */

export interface RuleInput {
  name?: string | undefined;
  kind?: RuleKind | undefined;
  pattern?: string | undefined;
  appliesTo?: ContentType[] | undefined;
  action?: RuleAction | undefined;
  category?: string | undefined;
  reason?: string | null | undefined;
  isActive?: boolean | undefined;
}

export function ruleView(row: ModerationRuleRow) {
  return {
    id: row.id,
    name: row.name,
    kind: RuleKindEnum.toApi(row.kind),
    pattern: row.pattern,
    appliesTo: [...(row.appliesToPosts ? ['post' as const] : []), ...(row.appliesToComments ? ['comment' as const] : [])].map(ContentTypeEnum.toApi),
    action: RuleActionEnum.toApi(row.action),
    category: row.category,
    reason: row.reason,
    isActive: row.isActive,
    deactivatedAt: row.deactivatedAt?.toISOString() ?? null,
    deactivatedBy: row.deactivatedBy,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    usage: { matchCount: row.matchCount, lastMatchedAt: row.lastMatchedAt?.toISOString() ?? null, timeouts: row.timeoutCount },
    patternProblem: row.kind === 'regex' ? (patternProblem(row.pattern) ?? null) : null,
  };
}

function checkPattern(kind: RuleKind, pattern: string): void {
  if (kind === 'regex') {
    const problem = patternProblem(pattern);
    if (problem) throw validationFailed([{ instancePath: '/pattern', keyword: 're2', message: problem, params: {} }], 'body');
  } else if (!/[\p{L}\p{N}]/u.test(pattern)) {
    throw new AppError(400, 'moderation.invalid_keyword', 'A keyword rule needs at least one letter or digit in its pattern.', {
      errors: [{ pointer: '/pattern', in: 'body', detail: 'must contain a letter or digit' }],
    });
  }
}

function auditable(row: ModerationRuleRow) {
  const { matchCount: _m, lastMatchedAt: _l, timeoutCount: _t, createdAt: _c, updatedAt: _u, ...rest } = row;
  return rest;
}

export async function listRules(deps: ServiceDeps, context: AuditContext, filter: repo.RuleFilter, page: Page) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const { items, total } = await repo.listRules(tx, filter, page);
    await recordAudit(inTx(deps, tx), context, { action: 'moderation.rules_listed', targetType: 'moderation_rule', after: { ...filter, page: page.page, count: items.length } });
    return { items: items.map(ruleView), total };
  });
}

export async function getRule(deps: ServiceDeps, id: string) {
  const { db } = deps;
  const row = await repo.findRule(db, id);
  if (!row) throw ModerationErrors.ruleNotFound(id);
  return ruleView(row);
}

export async function createRule(deps: ServiceDeps, context: AuditContext, input: RuleInput & Required<Pick<RuleInput, 'name' | 'kind' | 'pattern' | 'action'>>) {
  const { db } = deps;
  checkPattern(input.kind, input.pattern);
  const appliesTo = input.appliesTo ?? ['post', 'comment'];
  return db.transaction(async (tx) => {
    const row = await repo.insertRule(tx, {
      name: input.name.trim(),
      kind: input.kind,
      pattern: input.pattern,
      appliesToPosts: appliesTo.includes('post'),
      appliesToComments: appliesTo.includes('comment'),
      action: input.action,
      category: input.category ?? 'rule',
      reason: input.reason ?? null,
      createdBy: context.actor.userId ?? null,
    });
    await recordAudit(inTx(deps, tx), context, { action: 'moderation.rule_created', targetType: 'moderation_rule', targetId: row.id, after: auditable(row) });
    return ruleView(row);
  });
}

export async function updateRule(deps: ServiceDeps, context: AuditContext, id: string, input: RuleInput) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const before = await repo.findRule(tx, id, { forUpdate: true });
    if (!before) throw ModerationErrors.ruleNotFound(id);
    const kind = input.kind ?? before.kind;
    const pattern = input.pattern ?? before.pattern;
    if (input.kind !== undefined || input.pattern !== undefined || input.isActive === true) checkPattern(kind, pattern);
    const activity =
      input.isActive === undefined || input.isActive === before.isActive
        ? {}
        : input.isActive
          ? lifecycleValues(true, null, null)
          : lifecycleValues(false, context.actor.userId ?? null, null);
    const after = await repo.updateRule(tx, id, {
      ...(input.name !== undefined ? { name: input.name.trim() } : {}),
      kind,
      pattern,
      ...(input.appliesTo ? { appliesToPosts: input.appliesTo.includes('post'), appliesToComments: input.appliesTo.includes('comment') } : {}),
      ...(input.action !== undefined ? { action: input.action } : {}),
      ...(input.category !== undefined ? { category: input.category } : {}),
      ...(input.reason !== undefined ? { reason: input.reason } : {}),
      ...activity,
    });
    const action = 'isActive' in activity ? (activity.isActive ? 'moderation.rule_reactivated' : 'moderation.rule_deactivated') : 'moderation.rule_updated';
    await recordAudit(inTx(deps, tx), context, { action, targetType: 'moderation_rule', targetId: id, before: auditable(before), after: auditable(after) });
    return ruleView(after);
  });
}

/** Deactivation and reactivation through the shared lifecycle (POST …/deactivate, …/reactivate). */
export const ruleLifecycle: Lifecycle<ModerationRuleRow, ReturnType<typeof ruleView>> = {
  lock: (tx, id) => repo.findRule(tx, id, { forUpdate: true }),
  update: async (tx, id, values) => {
    if (values.isActive) {
      const rule = (await repo.findRule(tx, id))!;
      const problem = rule.kind === 'regex' ? patternProblem(rule.pattern) : undefined;
      if (problem) throw ModerationErrors.rulePatternUnsupported(id, problem);
    }
    await repo.updateRule(tx, id, values);
  },
  view: async ({ db }, id) => ruleView((await repo.findRule(db, id))!),
  notFound: ModerationErrors.ruleNotFound,
  alreadyActive: ModerationErrors.ruleAlreadyActive,
  alreadyInactive: ModerationErrors.ruleAlreadyInactive,
  audit: { targetType: 'moderation_rule', deactivated: 'moderation.rule_deactivated', reactivated: 'moderation.rule_reactivated' },
};

export function setRuleActive(deps: ServiceDeps, context: AuditContext, id: string, active: boolean, reason: string | undefined) {
  return setActive(deps, context, ruleLifecycle, id, active, reason);
}

/**
 * At start-up: active regular-expression rules that RE2 cannot compile (written before rules ran
 * on RE2, with a backreference or lookaround) are deactivated with the reason, audit-logged as the
 * system, and logged as a warning. SQL cannot tell which patterns RE2 refuses, RE2 itself can:
 * hence here rather than in a migration. The rules list shows them with `patternProblem`.
 */
export async function deactivateUncompilableRules(deps: ServiceDeps, log: { warn(details: object, message: string): void }): Promise<void> {
  const { db } = deps;
  const { items } = await repo.listRules(db, { isActive: true, kind: 'regex' }, { limit: 100_000, offset: 0 });
  for (const rule of items) {
    const problem = patternProblem(rule.pattern);
    if (!problem) continue;
    const reason = `RE2 cannot compile its pattern: it ${problem}. Rewrite the pattern, then reactivate the rule.`;
    await db.transaction(async (tx) => {
      // Conditional on still being active: instances starting together deactivate (and audit) it once.
      const after = await repo.deactivateRuleBySystem(tx, rule.id, reason);
      if (!after) return;
      await recordAudit(inTx(deps, tx), { actor: { type: 'system' } }, { action: 'moderation.rule_deactivated', targetType: 'moderation_rule', targetId: rule.id, reason, before: auditable(rule), after: auditable(after) });
      log.warn({ ruleId: rule.id, name: rule.name, pattern: rule.pattern, problem }, 'moderation rule deactivated: RE2 cannot compile its pattern');
    });
  }
}
