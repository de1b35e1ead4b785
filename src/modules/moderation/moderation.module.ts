import { defineModule } from '../../core/module.js';
import { registerPersonalData } from '../../core/personal-data.js';
import { moderationPersonalData } from './moderation.personal-data.js';
import { adminModerationRoutes } from './moderation.admin.routes.js';
import { moderationSettingsRoutes } from './moderation-settings.admin.routes.js';
import { moderationRulesRoutes } from './moderation-rules.admin.routes.js';

/** The moderation queue, its settings and its rules. */
export const moderationModule = defineModule('moderation', {
  providers: (deps) => registerPersonalData(deps, moderationPersonalData),
  routes: [adminModerationRoutes, moderationSettingsRoutes, moderationRulesRoutes],
});
