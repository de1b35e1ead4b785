import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { lifecycleRoutes } from '../../core/admin/lifecycle.js';
import { auditContextOf } from '../../core/audit/context.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { CreateRuleBody, createRuleInputFromApi, ModerationRule, ruleInputFromApi, RuleKindEnum, RulesQuery, UpdateRuleBody } from './moderation-rules.admin.schemas.js';
import { RuleActionEnum } from './moderation.admin.schemas.js';
import * as service from './moderation-rules.admin.service.js';

export const moderationRulesRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  app.addSchema(ModerationRule);
  const tags = ['admin: moderation'];
  app.addHook('onReady', async () => {
    await service.deactivateUncompilableRules(services, app.log).catch((error: unknown) => app.log.error({ err: error }, 'could not check the moderation rules against RE2'));
  });

  app.get(
    '/api/admin/moderation-rules',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        operationId: 'listModerationRules',
        summary: 'Moderation rules with their usage, oldest first',
        description: 'Filter by `isActive`, `kind` and `action`. Audit-logged.',
        querystring: RulesQuery,
        response: { 200: { ...Type.Array(Type.Ref('ModerationRule')), headers: paginationHeaders } },
      },
    },
    async (request, reply) =>
      paginate(request, reply, request.query, (page) =>
        service.listRules(services, auditContextOf(request), { isActive: request.query.isActive, kind: RuleKindEnum.fromApi(request.query.kind), action: RuleActionEnum.fromApi(request.query.action) }, page),
      ),
  );

  app.get(
    '/api/admin/moderation-rules/:id',
    {
      config: { access: 'admin' },
      schema: { tags, operationId: 'getModerationRule', summary: 'One moderation rule with its usage', params: IdParams, response: { 200: Type.Ref('ModerationRule'), ...errorResponses(404) } },
    },
    async (request) => service.getRule(services, request.params.id),
  );

  app.post(
    '/api/admin/moderation-rules',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        operationId: 'createModerationRule',
        summary: 'Create a moderation rule',
        description:
          'A keyword or regular expression checked against new and edited posts and/or comments; `flag` holds matching content for review, `reject` refuses it with `reason`. ' +
          'Regular expressions take RE2 syntax (https://github.com/google/re2/wiki/Syntax), matched ignoring case in time linear in the text whatever the pattern; one RE2 cannot compile (a backreference such as `\\1`, a lookahead or lookbehind) is refused: 400 `request.validation_failed` naming `pattern`, saying what is not supported and what to write instead. Audit-logged.',
        body: CreateRuleBody,
        response: { 201: Type.Ref('ModerationRule') },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createRule(services, auditContextOf(request), createRuleInputFromApi(request.body))),
  );

  app.put(
    '/api/admin/moderation-rules/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        operationId: 'updateModerationRule',
        summary: 'Change, deactivate or reactivate a moderation rule',
        description:
          'Partial: omitted fields keep their value. `isActive: false` deactivates the rule (rules are never deleted, so their history and usage stay). A changed regular expression, or one reactivated with `isActive: true`, must compile on RE2 (else 400 `request.validation_failed` naming `pattern`). Audit-logged.',
        params: IdParams,
        body: UpdateRuleBody,
        response: { 200: Type.Ref('ModerationRule'), ...errorResponses(404) },
      },
    },
    async (request) => service.updateRule(services, auditContextOf(request), request.params.id, ruleInputFromApi(request.body)),
  );

  lifecycleRoutes(app, {
    base: '/api/admin/moderation-rules',
    access: 'admin',
    tags,
    noun: 'moderation rule',
    response: Type.Ref('ModerationRule'),
    deactivationEffect: 'The rule stops applying to new and edited content; it is kept with its history and usage (rules are never deleted).',
    handler: (request, id, active, reason) => service.setRuleActive(services, auditContextOf(request), id, active, reason),
  });
};
