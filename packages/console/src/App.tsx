import { lazy } from 'react';
import { Admin, CustomRoutes, Layout, Menu, Resource, defaultTheme, memoryStore, usePermissions, type LayoutProps } from 'react-admin';
import { Navigate, Route } from 'react-router-dom';
import { Alert, Box, Typography } from '@mui/material';
import { authProvider } from './authProvider';
import { dataProvider } from './dataProvider';
import { LoginPage } from './LoginPage';
import { SCREENS, type MyAccess } from './access';

// Each screen is its own chunk, loaded when first opened (the initial JavaScript stays small).
const ModerationQueue = lazy(() => import('./screens/ModerationQueue'));

// Dark enough app bar and buttons for AA contrast with white text (the default theme's title fails axe).
const theme = {
  ...defaultTheme,
  palette: { ...defaultTheme.palette, primary: { main: '#1a4d7a' }, secondary: { main: '#123a5c' } },
};

/** The menu lists only what the API says the caller may do (GET /api/admin/me). */
function ConsoleMenu() {
  const { permissions: access } = usePermissions<MyAccess>();
  if (!access?.staff) return <Menu />;
  return <Menu>{SCREENS.moderation(access) ? <Menu.ResourceItem name="moderation" /> : null}</Menu>;
}

function ConsoleLayout(props: LayoutProps) {
  return <Layout {...props} menu={ConsoleMenu} />;
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
  if (SCREENS.moderation(access)) return <Navigate to="/moderation" replace />;
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
        ...(access?.staff && SCREENS.moderation(access) ? [<Resource key="moderation" name="moderation" list={ModerationQueue} options={{ label: 'Moderation' }} />] : []),
      ]}
    </Admin>
  );
}
