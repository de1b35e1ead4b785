import { useEffect, useState } from 'react';
import { Title } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { Alert, Box, Card, CardContent, MenuItem, TextField, Typography } from '@mui/material';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { paths } from '@fishlog/client';
import { fishlog, problemText } from '../api';
import { money } from '../format';

type Json<P extends keyof paths> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': infer T } } } } } ? T : never;
type Overview = Json<'/api/admin/dashboard/overview'>;
type Growth = Json<'/api/admin/dashboard/analytics/user-growth'>;
type Revenue = Json<'/api/admin/dashboard/analytics/revenue'>;
type Popular = Json<'/api/admin/dashboard/analytics/popular'>;


const PERIODS = [
  { days: 7, label: 'Last 7 days', interval: 'Day' },
  { days: 30, label: 'Last 30 days', interval: 'Day' },
  { days: 90, label: 'Last 90 days', interval: 'Week' },
  { days: 365, label: 'Last 12 months', interval: 'Month' },
] as const;

/** The overview figures (GET /api/admin/dashboard/overview), user growth, revenue and popular content as charts, the period in the URL. */
export default function Dashboard() {
  const [params, setParams] = useSearchParams();
  const days = Number(params.get('days') ?? 30);
  const period = PERIODS.find((p) => p.days === days) ?? PERIODS[1];
  const [overview, setOverview] = useState<Overview>();
  const [growth, setGrowth] = useState<Growth>();
  const [revenue, setRevenue] = useState<Revenue>();
  const [popular, setPopular] = useState<Popular>();
  const [problem, setProblem] = useState<string>();

  useEffect(() => {
    void fishlog.GET('/api/admin/dashboard/overview').then(({ data, error }) => (error ? setProblem(problemText(error)) : setOverview(data)));
  }, []);
  useEffect(() => {
    let live = true;
    const to = new Date();
    const from = new Date(to.getTime() - period.days * 86_400_000);
    const query = { from: from.toISOString(), to: to.toISOString(), interval: period.interval };
    void fishlog.GET('/api/admin/dashboard/analytics/revenue', { params: { query } }).then(({ data, error }) => {
      if (!live) return;
      if (error) setProblem(problemText(error));
      else setRevenue(data);
    });
    void fishlog.GET('/api/admin/dashboard/analytics/popular', { params: { query: { from: from.toISOString(), to: to.toISOString(), limit: 5 } } }).then(({ data, error }) => {
      if (!live) return;
      if (error) setProblem(problemText(error));
      else setPopular(data);
    });
    void fishlog
      .GET('/api/admin/dashboard/analytics/user-growth', { params: { query: { from: from.toISOString(), to: to.toISOString(), interval: period.interval } } })
      .then(({ data, error }) => {
        if (!live) return;
        if (error) setProblem(problemText(error));
        else setGrowth(data);
      });
    return () => {
      live = false;
    };
  }, [period]);

  const figures: [string, number | undefined, string?][] = overview
    ? [
        ['Users', overview.users.total, `${overview.users.last7Days} new in 7 days`],
        ['Active users (30 days)', overview.users.activeLast30Days],
        ['Catches', overview.catches.total, `${overview.catches.last7Days} in 7 days`],
        ['Posts', overview.posts.total, `${overview.posts.last7Days} in 7 days`],
        ['Awaiting moderation', overview.pendingModeration.total],
        ['Open reports', overview.openReports],
        ['Bans in force', overview.activeBans],
      ]
    : [];
  const revenuePoints = (revenue?.periods ?? []).map((p) => ({ period: p.periodStart.slice(0, 10), Net: p.netCents / 100, Refunded: p.refundedCents / 100 }));
  const species = (popular?.mostLoggedSpecies ?? []).map((s) => ({ name: s.commonName ?? 'Unnamed species', Catches: s.catches, Anglers: s.anglers }));
  const liked = popular?.mostLikedPosts ?? [];
  const points = (growth?.periods ?? []).map((p) => ({ period: p.periodStart.slice(0, 10), 'New users': p.newUsers, 'Active users': p.activeUsers }));

  return (
    <Box sx={{ p: 2 }}>
      <Title title="Dashboard" />
      <Typography component="h1" variant="h5" gutterBottom>
        Dashboard
      </Typography>
      {problem ? (
        <Alert severity="error" role="alert">
          {problem}
        </Alert>
      ) : null}
      <Box component="section" aria-label="Overview" sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))', gap: 2, mb: 3 }}>
        {figures.map(([label, value, sub]) => (
          <Card key={label} variant="outlined">
            <CardContent>
              <Typography variant="body2" color="text.secondary">
                {label}
              </Typography>
              <Typography component="p" variant="h4">
                {value}
              </Typography>
              {sub ? <Typography variant="body2">{sub}</Typography> : null}
            </CardContent>
          </Card>
        ))}
      </Box>
      <Card component="section" aria-label="User growth" variant="outlined">
        <CardContent>
          <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
            <Typography component="h2" variant="h6">
              User growth{growth ? ` (${growth.totals.newUsers} new)` : ''}
            </Typography>
            <TextField fullWidth={false} select size="small" label="Period" value={period.days} onChange={(e) => setParams({ days: e.target.value })} sx={{ minWidth: 180 }}>
              {PERIODS.map((p) => (
                <MenuItem key={p.days} value={p.days}>
                  {p.label}
                </MenuItem>
              ))}
            </TextField>
          </Box>
          <Box sx={{ height: 320 }} role="img" aria-label={`New and active users per ${period.interval.toLowerCase()}, ${period.label.toLowerCase()}`}>
            <ResponsiveContainer width="100%" height="100%">
              <LineChart data={points} margin={{ top: 16, right: 16, bottom: 8, left: 0 }}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="period" />
                <YAxis allowDecimals={false} />
                <Tooltip />
                <Legend />
                <Line type="monotone" dataKey="New users" stroke="#1a4d7a" strokeWidth={2} isAnimationActive={false} />
                <Line type="monotone" dataKey="Active users" stroke="#a14900" strokeWidth={2} isAnimationActive={false} />
              </LineChart>
            </ResponsiveContainer>
          </Box>
        </CardContent>
      </Card>
      <Card component="section" aria-label="Revenue" variant="outlined" sx={{ mt: 2 }}>
        <CardContent>
          <Typography component="h2" variant="h6">
            Revenue{revenue ? ` (${money(revenue.totals.netCents, revenue.currency)} net, ${revenue.totals.payments} payment${revenue.totals.payments === 1 ? '' : 's'})` : ''}
          </Typography>
          <Box sx={{ height: 280 }} role="img" aria-label={`Net revenue and refunds per ${period.interval.toLowerCase()}, ${period.label.toLowerCase()}`}>
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={revenuePoints} margin={{ top: 16, right: 16, bottom: 8, left: 0 }}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="period" />
                <YAxis />
                <Tooltip />
                <Legend />
                <Bar dataKey="Net" fill="#1a4d7a" isAnimationActive={false} />
                <Bar dataKey="Refunded" fill="#a14900" isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          </Box>
        </CardContent>
      </Card>
      <Card component="section" aria-label="Popular content" variant="outlined" sx={{ mt: 2 }}>
        <CardContent>
          <Typography component="h2" variant="h6">
            Popular content ({period.label.toLowerCase()})
          </Typography>
          <Typography component="h3" variant="subtitle1" sx={{ mt: 1 }}>
            Most logged species
          </Typography>
          {species.length === 0 ? (
            <Typography>No catch logged in the period.</Typography>
          ) : (
            <Box sx={{ height: 60 + species.length * 40 }} role="img" aria-label={`Catches and anglers of the most logged species, ${period.label.toLowerCase()}: ${species.map((s) => `${s.name} ${s.Catches}`).join(', ')}`}>
              <ResponsiveContainer width="100%" height="100%">
                <BarChart data={species} layout="vertical" margin={{ top: 8, right: 16, bottom: 8, left: 16 }}>
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis type="number" allowDecimals={false} />
                  <YAxis type="category" dataKey="name" width={160} />
                  <Tooltip />
                  <Legend />
                  <Bar dataKey="Catches" fill="#1a4d7a" isAnimationActive={false} />
                  <Bar dataKey="Anglers" fill="#2e7d32" isAnimationActive={false} />
                </BarChart>
              </ResponsiveContainer>
            </Box>
          )}
          <Typography component="h3" variant="subtitle1" sx={{ mt: 1 }}>
            Most liked posts
          </Typography>
          {liked.length === 0 ? (
            <Typography>No like given in the period.</Typography>
          ) : (
            <Box component="ol" sx={{ mt: 0 }}>
              {liked.map((p) => (
                <li key={p.postId}>
                  {p.authorUsername}'s post of {new Date(p.createdAt).toLocaleDateString()}: {p.likesInPeriod} like{p.likesInPeriod === 1 ? '' : 's'} in the period ({p.commentCount} comments)
                </li>
              ))}
            </Box>
          )}
        </CardContent>
      </Card>
    </Box>
  );
}
