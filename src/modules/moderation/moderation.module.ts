import { defineModule } from '../../core/module.js';
import { adminModerationRoutes } from './moderation.admin.routes.js';
import { moderationSettingsRoutes } from './moderation-settings.admin.routes.js';
import { moderationRulesRoutes } from './moderation-rules.admin.routes.js';

/** The moderation queue, its settings and its rules. */
export const moderationModule = defineModule('moderation', {
  routes: [adminModerationRoutes, moderationSettingsRoutes, moderationRulesRoutes],
});
