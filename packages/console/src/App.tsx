import { lazy } from 'react';
import { Admin, AppBar, CustomRoutes, Layout, Menu, Resource, UserMenu, defaultTheme, memoryStore, useGetIdentity, usePermissions, type AppBarProps, type LayoutProps } from 'react-admin';
import { Navigate, Route } from 'react-router-dom';
import { Alert, Box, Divider, Typography } from '@mui/material';
import { authProvider } from './authProvider';
import { dataProvider } from './dataProvider';
import { LoginPage } from './LoginPage';
import { SCREENS, may, type MyAccess } from './access';
import { useMaintenanceMode } from './maintenance';

// Each screen is its own chunk, loaded when first opened (the initial JavaScript stays small).
const ModerationQueue = lazy(() => import('./screens/ModerationQueue'));
const UsersList = lazy(() => import('./screens/Users').then((m) => ({ default: m.UsersList })));
const UserShow = lazy(() => import('./screens/Users').then((m) => ({ default: m.UserShow })));
const Appeals = lazy(() => import('./screens/Appeals'));
const AccountDeletions = lazy(() => import('./screens/AccountDeletions'));
const AuditLog = lazy(() => import('./screens/AuditLog'));
const Employees = lazy(() => import('./screens/Employees'));
const Reports = lazy(() => import('./screens/Reports'));
const PhotoReview = lazy(() => import('./screens/PhotoReview'));
const Rules = lazy(() => import('./screens/Rules'));
const ModerationSettings = lazy(() => import('./screens/ModerationSettings'));
const AnnouncementsList = lazy(() => import('./screens/Announcements').then((m) => ({ default: m.AnnouncementsList })));
const AnnouncementShow = lazy(() => import('./screens/Announcements').then((m) => ({ default: m.AnnouncementShow })));
const SettingsList = lazy(() => import('./screens/Settings').then((m) => ({ default: m.SettingsList })));
const SettingShow = lazy(() => import('./screens/Settings').then((m) => ({ default: m.SettingShow })));
const Jobs = lazy(() => import('./screens/Jobs'));
const WebhooksList = lazy(() => import('./screens/Webhooks').then((m) => ({ default: m.WebhooksList })));
const WebhookShow = lazy(() => import('./screens/Webhooks').then((m) => ({ default: m.WebhookShow })));
const WebhookCreate = lazy(() => import('./screens/Webhooks').then((m) => ({ default: m.WebhookCreate })));
const PaymentsList = lazy(() => import('./screens/Payments').then((m) => ({ default: m.PaymentsList })));
const PaymentShow = lazy(() => import('./screens/Payments').then((m) => ({ default: m.PaymentShow })));
// One chunk for the catalog and reference data screens (species, brands, gear, lookups): they share their code.
const CatalogList = lazy(() => import('./screens/Catalog').then((m) => ({ default: m.CatalogList })));
const CatalogShow = lazy(() => import('./screens/Catalog').then((m) => ({ default: m.CatalogShow })));
const CatalogCreate = lazy(() => import('./screens/Catalog').then((m) => ({ default: m.CatalogCreate })));
/** The catalog screens: resource, menu label, and what lets the caller in. */
const CATALOG_SCREENS = [
  ['species', 'Species', SCREENS.species],
  ['brands', 'Brands', SCREENS.brands],
  ['rods', 'Gear: rods', SCREENS.brands],
  ['reels', 'Gear: reels', SCREENS.brands],
  ['lines', 'Gear: lines', SCREENS.brands],
  ['lures', 'Gear: lures', SCREENS.brands],
  ['apparel', 'Gear: apparel', SCREENS.brands],
  ['lookups', 'Lookup values', SCREENS.lookups],
] as const;
// One chunk for the regulations screens.
const RegulationsList = lazy(() => import('./screens/Regulations').then((m) => ({ default: m.RegulationsList })));
const RegulationsCreate = lazy(() => import('./screens/Regulations').then((m) => ({ default: m.RegulationsCreate })));
const Submissions = lazy(() => import('./screens/Regulations').then((m) => ({ default: m.Submissions })));
/** The regulations screens (Regulations.View reads, Regulations.Edit changes): resource, menu label, whether records can be added (none has a page: the API reads none by id, they open under their row). */
const REGULATIONS_SCREENS = [
  ['jurisdictions', 'Jurisdictions', { create: true }],
  ['zones', 'Zones and waters', { create: true }],
  ['rule-sets', 'Rule sets', { create: true }],
  ['emergency-orders', 'Emergency orders', { create: true }],
  ['programs', 'Angler programs', { create: true }],
] as const;
// One chunk for the community queues (events, tournaments, organizers, captains, fishing reports, spots, clubs).
const community = (screen: 'Events' | 'Tournaments' | 'Organizers' | 'Captains' | 'FishingReports' | 'Spots' | 'Clubs') => lazy(() => import('./screens/Community').then((m) => ({ default: m[screen] })));
/** The community screens: resource, menu label, its component, and what lets the caller in. */
const COMMUNITY_SCREENS = [
  ['events', 'Events', community('Events'), SCREENS.events],
  ['tournaments', 'Tournaments', community('Tournaments'), SCREENS.tournaments],
  ['organizers', 'Organizers', community('Organizers'), SCREENS.organizers],
  ['captains', 'Charter captains', community('Captains'), SCREENS.captains],
  ['fishing-reports', 'Fishing reports', community('FishingReports'), SCREENS.fishingReports],
  ['spots', 'Spots', community('Spots'), SCREENS.spotsAndClubs],
  ['clubs', 'Clubs', community('Clubs'), SCREENS.spotsAndClubs],
] as const;
// recharts is only in this chunk.
const Dashboard = lazy(() => import('./screens/Dashboard'));

// Dark enough app bar and buttons for AA contrast with white text (the default theme's title fails axe).
// No animation for someone whose system asks for reduced motion (WCAG 2.3.3): MUI's transitions are switched off.
const reducedMotion = typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
const theme = {
  ...defaultTheme,
  palette: { ...defaultTheme.palette, primary: { main: '#1a4d7a' }, secondary: { main: '#123a5c' } },
  ...(reducedMotion ? { transitions: { create: () => 'none' } } : {}),
  // Every progress indicator is named (axe: aria-progressbar-name), react-admin's loading spinner in the app bar too.
  components: {
    ...defaultTheme.components,
    MuiCircularProgress: { defaultProps: { 'aria-label': 'Loading' } },
    MuiLinearProgress: { defaultProps: { 'aria-label': 'Loading' } },
  },
};

/** The menu lists only what the API says the caller may do (GET /api/admin/me). */
function ConsoleMenu() {
  const { permissions: access } = usePermissions<MyAccess>();
  // No menu at all for a caller who is not staff (react-admin's default menu would offer its Dashboard entry).
  if (!access?.staff) return null;
  const when = (allowed: boolean, ...names: string[]) => (allowed ? names : []);
  // The screens in groups (people and access; moderation; money, audit and notices; catalog; community; regulations;
  // settings, jobs and the Owner's employees), a divider between two groups (a separator: the arrow keys pass over it).
  const groups = [
    [...when(SCREENS.dashboard(access), 'dashboard'), ...when(SCREENS.users(access), 'users', 'appeals', 'account-deletions')],
    [...when(SCREENS.moderation(access), 'moderation', 'photos'), ...when(SCREENS.reports(access), 'reports'), ...when(SCREENS.rules(access), 'rules'), ...when(SCREENS.moderationSettings(access), 'moderation-settings')],
    [...when(SCREENS.payments(access), 'payments'), ...when(SCREENS.audit(access), 'audit'), ...when(SCREENS.announcements(access), 'announcements')],
    CATALOG_SCREENS.filter(([, , allowed]) => allowed(access)).map(([name]) => name),
    COMMUNITY_SCREENS.filter(([, , , allowed]) => allowed(access)).map(([name]) => name),
    when(SCREENS.regulations(access), ...REGULATIONS_SCREENS.map(([name]) => name), 'submissions'),
    [...when(SCREENS.settings(access), 'settings'), ...when(SCREENS.jobs(access), 'jobs'), ...when(SCREENS.webhooks(access), 'webhooks'), ...when(SCREENS.employees(access), 'employees')],
  ].filter((group) => group.length > 0);
  return (
    <Menu>
      {groups.flatMap((group, i) => [
        ...(i > 0 ? [<Divider key={`divider-${i}`} component="li" sx={{ my: 0.5 }} />] : []),
        ...group.map((name) => <Menu.ResourceItem key={name} name={name} />),
      ])}
    </Menu>
  );
}

/**
 * The user menu (sign-out) named with what it shows, the person and their role: react-admin's own
 * is named "Profile" whatever it shows, which fails WCAG 2.5.3 (axe's label-content-name-mismatch).
 */
function ConsoleUserMenu() {
  const { identity } = useGetIdentity();
  return <UserMenu label={identity?.fullName ? `${identity.fullName}: account menu` : 'Account menu'} />;
}

function ConsoleAppBar(props: AppBarProps) {
  return <AppBar {...props} userMenu={<ConsoleUserMenu />} />;
}

function ConsoleLayout({ children, ...props }: LayoutProps) {
  return (
    <Layout {...props} menu={ConsoleMenu} appBar={ConsoleAppBar}>
      <MaintenanceBanner />
      {children}
    </Layout>
  );
}

/** On every screen while the platform is in maintenance mode (for those who may read the settings). */
function MaintenanceBanner() {
  const { permissions: access } = usePermissions<MyAccess>();
  if (!useMaintenanceMode(access)) return null;
  return (
    <Alert severity="warning" role="status" sx={{ m: 1 }}>
      Maintenance mode is on: the API answers 503 to everyone but staff (sign-in and /health stay open). Turn it off under System settings, MaintenanceMode.
    </Alert>
  );
}

/** Standard, DNR and Researcher users: the console is for staff only. */
export function NoAccess({ access }: { access?: MyAccess | undefined }) {
  return (
    <Box component="section" sx={{ p: 3 }}>
      <Typography component="h1" variant="h4" gutterBottom>
        No access
      </Typography>
      <Alert severity="warning">
        The staff console is for the Owner, Admins and Moderators. {access ? `You are signed in as ${access.username}, whose role is ${access.role}.` : ''} Use the
        fishlog app instead, or ask the Owner for a staff role.
      </Alert>
    </Box>
  );
}

/** The start page: the first screen the caller may use, or "no access". */
function Home() {
  const { permissions: access, isPending } = usePermissions<MyAccess>();
  if (isPending || !access) return null;
  if (!access.staff) return <NoAccess access={access} />;
  if (SCREENS.dashboard(access)) return <Navigate to="/dashboard" replace />;
  if (SCREENS.moderation(access)) return <Navigate to="/moderation" replace />;
  if (SCREENS.users(access)) return <Navigate to="/users" replace />;
  if (SCREENS.audit(access)) return <Navigate to="/audit" replace />;
  return (
    <Box sx={{ p: 3 }}>
      <Typography component="h1" variant="h4">
        Welcome, {access.username}
      </Typography>
      <Typography>Your role ({access.role}) holds no permission the console has a screen for yet.</Typography>
    </Box>
  );
}

export function App() {
  return (
    <Admin
      title="fishlog console"
      authProvider={authProvider}
      dataProvider={dataProvider}
      loginPage={LoginPage}
      layout={ConsoleLayout}
      dashboard={Home}
      theme={theme}
      // react-admin's preferences in memory, not localStorage: list state lives in the URL, the session in sessionStorage.
      store={memoryStore()}
      requireAuth
      disableTelemetry
    >
      {(access: MyAccess | undefined) => [
        <CustomRoutes key="no-access">
          <Route path="/no-access" element={<NoAccess access={access} />} />
        </CustomRoutes>,
        ...(access?.staff && SCREENS.dashboard(access) ? [<Resource key="dashboard" name="dashboard" list={Dashboard} options={{ label: 'Dashboard' }} />] : []),
        ...(access?.staff && SCREENS.users(access) ? [<Resource key="users" name="users" list={UsersList} show={UserShow} recordRepresentation="username" options={{ label: 'Users' }} />] : []),
        ...(access?.staff && SCREENS.users(access) ? [<Resource key="appeals" name="appeals" list={Appeals} options={{ label: 'Ban appeals' }} />] : []),
        ...(access?.staff && SCREENS.users(access) ? [<Resource key="account-deletions" name="account-deletions" list={AccountDeletions} options={{ label: 'Account deletions' }} />] : []),
        ...(access?.staff && SCREENS.moderation(access) ? [<Resource key="moderation" name="moderation" list={ModerationQueue} options={{ label: 'Moderation' }} />] : []),
        ...(access?.staff && SCREENS.moderation(access) ? [<Resource key="photos" name="photos" list={PhotoReview} options={{ label: 'Photo review' }} />] : []),
        ...(access?.staff && SCREENS.rules(access) ? [<Resource key="rules" name="rules" list={Rules} options={{ label: 'Moderation rules' }} />] : []),
        ...(access?.staff && SCREENS.moderationSettings(access) ? [<Resource key="moderation-settings" name="moderation-settings" list={ModerationSettings} options={{ label: 'Moderation settings' }} />] : []),
        ...(access?.staff && SCREENS.reports(access) ? [<Resource key="reports" name="reports" list={Reports} options={{ label: 'Reports' }} />] : []),
        ...(access?.staff && SCREENS.payments(access) ? [<Resource key="payments" name="payments" list={PaymentsList} show={PaymentShow} options={{ label: 'Payments' }} />] : []),
        ...(access?.staff && SCREENS.audit(access) ? [<Resource key="audit" name="audit" list={AuditLog} options={{ label: 'Audit log' }} />] : []),
        ...(access?.staff && SCREENS.announcements(access) ? [<Resource key="announcements" name="announcements" list={AnnouncementsList} show={AnnouncementShow} options={{ label: 'Announcements' }} />] : []),
        ...(access?.staff
          ? CATALOG_SCREENS.filter(([, , allowed]) => allowed(access)).map(([name, label]) => (
              <Resource key={name} name={name} list={CatalogList} show={CatalogShow} create={CatalogCreate} options={{ label }} />
            ))
          : []),
        ...(access?.staff
          ? COMMUNITY_SCREENS.filter(([, , , allowed]) => allowed(access)).map(([name, label, screen]) => <Resource key={name} name={name} list={screen} options={{ label }} />)
          : []),
        ...(access?.staff && SCREENS.regulations(access)
          ? [
              ...REGULATIONS_SCREENS.map(([name, label, has]) => (
                <Resource
                  key={name}
                  name={name}
                  list={RegulationsList}
                  create={'create' in has && may(access, 'Regulations.Edit') ? RegulationsCreate : undefined}
                  options={{ label }}
                />
              )),
              <Resource key="submissions" name="submissions" list={Submissions} options={{ label: 'Angler submissions' }} />,
            ]
          : []),
        ...(access?.staff && SCREENS.settings(access) ? [<Resource key="settings" name="settings" list={SettingsList} show={SettingShow} options={{ label: 'System settings' }} />] : []),
        ...(access?.staff && SCREENS.jobs(access) ? [<Resource key="jobs" name="jobs" list={Jobs} options={{ label: 'Jobs and backups' }} />] : []),
        ...(access?.staff && SCREENS.webhooks(access) ? [<Resource key="webhooks" name="webhooks" list={WebhooksList} show={WebhookShow} create={WebhookCreate} options={{ label: 'Webhooks' }} />] : []),
        ...(access?.staff && SCREENS.employees(access) ? [<Resource key="employees" name="employees" list={Employees} options={{ label: 'Employees' }} />] : []),
      ]}
    </Admin>
  );
}
