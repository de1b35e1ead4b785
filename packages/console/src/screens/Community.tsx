import { SearchInput, SelectInput, TextInput } from 'react-admin';
import { Box } from '@mui/material';
import type { components } from '@fishlog/client';
import { fishlog } from '../api';
import { queueScreen, reasonBody, type Decision } from '../Decisions';
import { RecordForm } from '../RecordForm';
import { label, money } from '../format';
import { list, when } from '../RecordScreens';

type Event = components['schemas']['Event'];
type Tournament = components['schemas']['AdminTournament'];
type Organizer = components['schemas']['AdminTournamentOrganizer'];
type Captain = components['schemas']['CharterCaptain'] & { id: string };
type FishingReport = components['schemas']['FishingReport'];
type Spot = components['schemas']['AdminSpot'];
type Club = components['schemas']['AdminClub'];

/**
 * Community and events: the queues staff decide — events, tournaments, tournament organizers,
 * charter captains and fishing reports — each filtered by status (the one waiting by default),
 * a card per record with what it is, and its decisions with the reason the API records (each
 * button shown to whoever holds its permission; the API decides).
 */
const byId = (id: string) => ({ params: { path: { id } } });

export const Events = queueScreen<Event>({
  title: 'Events',
  statuses: ['PendingApproval', 'Approved', 'Rejected'],
  defaultStatus: 'PendingApproval',
  name: (e) => e.title,
  subheader: (e) => `${label(e.status)}${e.featured ? ' · featured' : ''} · ${e.type} · by ${e.createdBy.username}`,
  facts: (e) => [
    ['When', `${when(e.startsAt)} – ${when(e.endsAt)}`],
    ['Where', [e.venue.name, e.venue.address, e.venue.city, e.venue.stateCode].filter(Boolean).join(', ')],
    ['Description', e.description],
    ['Website', e.websiteUrl],
    ['Registered', `${e.registeredCount}${e.capacity === null ? '' : ` of ${e.capacity}`}`],
    ['Rejected because', e.rejectionReason],
  ],
  decisions: [
    // The API's approval takes no reason (it is audit-logged without one).
    { label: 'Approve', done: 'approved', when: (e) => e.status !== 'Approved', permission: 'Events.Approve', reason: 'none', send: (e) => fishlog.POST('/api/admin/events/{id}/approve', byId(e.id)) },
    {
      label: 'Reject',
      done: 'rejected',
      when: (e) => e.status === 'PendingApproval',
      permission: 'Events.Reject',
      reason: 'required',
      danger: true,
      send: (e, reason) => fishlog.POST('/api/admin/events/{id}/reject', { ...byId(e.id), body: { reason: reason! } }),
    },
    {
      label: 'Feature',
      done: 'featured',
      when: (e) => e.status === 'Approved' && !e.featured,
      permission: 'Events.Approve',
      reason: 'required',
      send: (e, reason) => fishlog.POST('/api/admin/events/{id}/feature', { ...byId(e.id), body: { reason: reason! } }),
    },
    { label: 'Stop featuring', done: 'no longer featured', when: (e) => e.featured, permission: 'Events.Approve', reason: 'none', send: (e) => fishlog.DELETE('/api/admin/events/{id}/feature', byId(e.id)) },
  ],
  reasonLabel: 'Reason (the organizer reads a rejection)',
  empty: 'No event waits.',
});

const tournamentDecision = (to: 'approve' | 'reject' | 'suspend' | 'reinstate') => (t: Tournament, reason: string | undefined) =>
  fishlog.POST(`/api/admin/tournaments/{id}/${to}`, { ...byId(t.id), body: { reason: reason! } });

export const Tournaments = queueScreen<Tournament>({
  title: 'Tournaments',
  statuses: ['PendingApproval', 'Approved', 'InProgress', 'Completed', 'Rejected', 'Suspended', 'Draft'],
  defaultStatus: 'PendingApproval',
  filters: [<SearchInput key="q" source="q" alwaysOn placeholder="Name contains" aria-label="Name contains" />],
  name: (t) => t.name,
  subheader: (t) => `${label(t.status)} · by ${t.organizer.name} (organizer ${t.organizerStatus})`,
  facts: (t) => [
    ['When', `${when(t.startsAt)} – ${when(t.endsAt)} (${t.timeZone})`],
    ['Where', [t.waterBody, t.stateCode].filter(Boolean).join(', ')],
    ['Format', `${t.format}, ${t.visibility}, code ${t.identifierCode}`],
    ['Entry fee', t.entryFeeCents === 0 ? 'free' : money(t.entryFeeCents, t.currency)],
    ['Divisions', list(t.divisions.map((d) => `${d.name} (${d.measure}, best ${d.bestN})`))],
    ['Registrations', `${t.usage.registrations}${t.capacity === null ? '' : ` of ${t.capacity}`}; ${t.usage.submissions} catch submissions`],
    ['Why', t.statusReason],
  ],
  decisions: [
    { label: 'Approve', done: 'approved', when: (t) => t.status === 'PendingApproval', permission: 'Tournaments.Approve', reason: 'required', send: tournamentDecision('approve') },
    { label: 'Reject', done: 'rejected', when: (t) => t.status === 'PendingApproval', permission: 'Tournaments.Reject', reason: 'required', danger: true, send: tournamentDecision('reject') },
    { label: 'Suspend', done: 'suspended', when: (t) => ['Approved', 'InProgress'].includes(t.status), permission: 'Tournaments.Suspend', reason: 'required', danger: true, send: tournamentDecision('suspend') },
    { label: 'Reinstate', done: 'reinstated', when: (t) => t.status === 'Suspended', permission: 'Tournaments.Suspend', reason: 'required', send: tournamentDecision('reinstate') },
  ],
  reasonLabel: 'Reason the organizer reads',
  empty: 'No tournament waits.',
});

const organizerDecision = (to: 'verify' | 'reject' | 'suspend' | 'reinstate') => (o: Organizer, reason: string | undefined) =>
  fishlog.POST(`/api/admin/organizers/{id}/${to}`, { ...byId(o.id), body: { reason: reason! } });

export const Organizers = queueScreen<Organizer>({
  title: 'Tournament organizers',
  statuses: ['Pending', 'Verified', 'Rejected', 'Suspended'],
  defaultStatus: 'Pending',
  filters: [<SearchInput key="q" source="q" alwaysOn placeholder="Name contains" aria-label="Name contains" />],
  name: (o) => o.name,
  subheader: (o) => `${label(o.status)} · applied ${when(o.createdAt)}`,
  facts: (o) => [
    ['Contact', [o.contactEmail, o.contactPhone].filter(Boolean).join(', ')],
    ['Website', o.website],
    ['Payments', o.takesPayments ? (o.paymentsAllowed ? 'takes entry fees (allowed)' : 'wants to take entry fees (not allowed yet)') : 'free tournaments only'],
    ['Usage', `${o.usage.tournaments} tournaments, ${o.usage.registrations} registrations`],
    ['Why', o.statusReason],
  ],
  decisions: [
    { label: 'Verify', done: 'verified', when: (o) => o.status === 'Pending', permission: 'Organizers.Verify', reason: 'required', send: organizerDecision('verify') },
    { label: 'Reject', done: 'rejected', when: (o) => o.status === 'Pending', permission: 'Organizers.Verify', reason: 'required', danger: true, send: organizerDecision('reject') },
    { label: 'Suspend', done: 'suspended', when: (o) => o.status === 'Verified', permission: 'Organizers.Suspend', reason: 'required', danger: true, send: organizerDecision('suspend') },
    { label: 'Reinstate', done: 'reinstated', when: (o) => o.status === 'Suspended', permission: 'Organizers.Suspend', reason: 'required', send: organizerDecision('reinstate') },
  ],
  reasonLabel: 'Reason the organizer reads',
  empty: 'No organizer waits.',
});

const captainPath = (c: Captain) => ({ params: { path: { userId: c.userId } } });

export const Captains = queueScreen<Captain>({
  title: 'Charter captains',
  statuses: ['Pending', 'Verified', 'Rejected'],
  defaultStatus: 'Pending',
  name: (c) => `Captain of ${c.vesselName}`,
  subheader: (c) => `${label(c.status)} · applied ${when(c.createdAt)}`,
  facts: (c) => [
    ['Licence', `${c.licenceType} ${c.licenceNumber}, expires ${c.licenceExpiresOn}${c.licenceValid ? '' : ' (not valid)'}`],
    ['Vessel', `${c.vesselName} (${c.vesselRegistration})`],
    ['Insurance', `${c.insuranceCarrier} ${c.insurancePolicyNumber}, expires ${c.insuranceExpiresOn}`],
    ['Review', c.reviewReason],
  ],
  decisions: [
    { label: 'Verify', done: 'verified', when: (c) => c.status === 'Pending', reason: 'required', send: (c, reason) => fishlog.POST('/api/admin/charter/captains/{userId}/verify', { ...captainPath(c), body: reasonBody(reason) }) },
    {
      label: 'Reject',
      done: 'rejected',
      when: (c) => c.status === 'Pending',
      reason: 'required',
      danger: true,
      send: (c, reason) => fishlog.POST('/api/admin/charter/captains/{userId}/reject', { ...captainPath(c), body: { reason: reason! } }),
    },
  ],
  reasonLabel: 'Reason the captain reads',
  empty: 'No captain waits.',
});

export const FishingReports = queueScreen<FishingReport>({
  title: 'Fishing reports',
  statuses: ['PendingReview', 'Published', 'Rejected'],
  defaultStatus: 'PendingReview',
  name: (r) => `Report on ${r.waterBody} by ${r.author.username}`,
  subheader: (r) => `${label(r.status)} · fished ${r.fishedOn}${r.stateCode ? ` · ${r.stateCode}` : ''}`,
  facts: (r) => [
    ['Text', r.text],
    ['Species', list(r.species.map((s) => `${s.commonName} (${s.bite})`))],
    ['Photos', r.photos?.length ?? 0],
    ['Moderation', r.moderationReason],
  ],
  decisions: [
    {
      label: 'Publish',
      done: 'published',
      when: (r) => r.status !== 'Published',
      permission: 'Content.Approve',
      reason: 'required',
      send: (r, note) => fishlog.POST('/api/admin/fishing-reports/{id}/approve', { ...byId(r.id), body: { note: note! } }),
    },
    {
      label: 'Reject',
      done: 'rejected',
      when: (r) => r.status !== 'Rejected',
      permission: 'Content.Moderate',
      reason: 'required',
      danger: true,
      send: (r, reason) => fishlog.POST('/api/admin/fishing-reports/{id}/reject', { ...byId(r.id), body: { reason: reason! } }),
    },
  ],
  reasonLabel: 'Reason (the author reads a rejection)',
  empty: 'No fishing report waits.',
});

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
/** Spots and clubs are listed by whether they are active (the API's `status`: Active, Inactive, All). */
const ACTIVITY = ['Active', 'Inactive', 'All'] as const;
const featuredFilter = <SelectInput key="featured" source="featured" label="Featured" choices={[{ id: 'true', name: 'Featured now' }, { id: 'false', name: 'Not featured' }]} alwaysOn />;
const stateFilter = <TextInput key="state" source="state" label="State (e.g. US-MN)" alwaysOn />;
const featuring = (r: { featured: boolean; featuredFrom: string | null; featuredUntil: string | null }) =>
  r.featured ? `since ${when(r.featuredFrom)}${r.featuredUntil ? ` until ${when(r.featuredUntil)}` : ''}` : r.featuredFrom ? `was ${when(r.featuredFrom)} – ${when(r.featuredUntil)}` : 'never';
const deactivation = (r: { isActive: boolean; deactivatedAt: string | null; deactivationReason: string | null }) =>
  r.isActive ? [] : ([['Deactivated', `${when(r.deactivatedAt)}: ${r.deactivationReason ?? ''}`]] as const);
/** Deactivate and reactivate (POST …/{id}/deactivate|reactivate) with the reason the API requires. */
const lifecycle = <T extends { id: string; isActive: boolean }>(path: '/api/admin/spots/{id}' | '/api/admin/clubs/{id}'): Array<Decision<T>> => [
  { label: 'Deactivate', done: 'deactivated', when: (r) => r.isActive, reason: 'required', danger: true, send: (r, reason) => fishlog.POST(`${path}/deactivate`, { ...byId(r.id), body: { reason: reason! } }) },
  { label: 'Reactivate', done: 'reactivated', when: (r) => !r.isActive, reason: 'required', send: (r, reason) => fishlog.POST(`${path}/reactivate`, { ...byId(r.id), body: { reason: reason! } }) },
];

/**
 * Spots (Admin, Owner; GET /api/admin/spots): every spot, boat ramp, pier and shore access —
 * deactivated ones and the seeded agency records too — by activity, kind, verification, state,
 * featuring and origin (in the URL), each with its usage; verify (a note optional), feature with a
 * reason, deactivate or reactivate with a reason, and correct its facts with a reason.
 */
export const Spots = queueScreen<Spot>({
  title: 'Spots',
  statuses: ACTIVITY,
  defaultStatus: 'Active',
  filters: [
    <SearchInput key="q" source="q" alwaysOn placeholder="Name, water or county" aria-label="Name, water or county" />,
    <SelectInput key="kind" source="kind" label="Kind" choices={['Spot', 'BoatRamp', 'Pier', 'Shore'].map((k) => ({ id: k, name: label(k) }))} alwaysOn />,
    <SelectInput key="verification" source="verification" label="Verification" choices={['Unverified', 'Verified'].map((v) => ({ id: v, name: v }))} alwaysOn />,
    stateFilter,
    featuredFilter,
    <SelectInput key="reference" source="reference" label="Added by" choices={[{ id: 'false', name: 'Anglers' }, { id: 'true', name: 'Agency data' }]} alwaysOn />,
  ],
  name: (s) => s.name,
  subheader: (s) => `${label(s.kind)} · ${s.status}${s.isActive ? '' : ' · deactivated'}${s.featured ? ' · featured' : ''} · ${s.createdBy ? `added by ${s.createdBy.username}` : `agency data${s.agency ? ` (${s.agency})` : ''}`}`,
  facts: (s) => [
    ['Where', [s.waterBody, s.county, s.stateCode].filter(Boolean).join(', ')],
    ['Location', `${s.location.latitude}, ${s.location.longitude}${s.location.precision === 'Exact' ? '' : ' (to the nearest km: shared from a private log)'}`],
    ['Privacy', s.privacy],
    ['Description', s.description],
    ['Source', s.sourceUrl],
    ['Usage', `${count(s.usage.ratings, 'rating')}${s.usage.averageRating === null ? '' : ` (${s.usage.averageRating} stars on average)`}, ${count(s.usage.confirmations, 'confirmation')}, ${count(s.usage.photos, 'photo')}`],
    ['Verified', s.verifiedAt ? when(s.verifiedAt) : 'no'],
    ['Featured', featuring(s)],
    ...deactivation(s),
  ],
  reasonLabel: 'Reason (kept in the audit log)',
  decisions: [
    { label: 'Verify', done: 'verified', when: (s) => s.isActive && s.status === 'Unverified', reason: 'optional', send: (s, reason) => fishlog.POST('/api/admin/spots/{id}/verify', { ...byId(s.id), body: reasonBody(reason) }) },
    { label: 'Feature', done: 'featured', when: (s) => s.isActive && !s.featured, reason: 'required', send: (s, reason) => fishlog.POST('/api/admin/spots/{id}/feature', { ...byId(s.id), body: { reason: reason! } }) },
    ...lifecycle<Spot>('/api/admin/spots/{id}'),
  ],
  extra: (s) => <CorrectSpot spot={s} />,
  empty: 'No spot matches.',
});

/** POST /api/admin/spots/{id}/correct: the facts that changed, with the reason (the API keeps before and after). */
function CorrectSpot({ spot }: { spot: Spot }) {
  return (
    <Box component="details" sx={{ mt: 2 }}>
      <Box component="summary" sx={{ cursor: 'pointer' }}>
        Correct {spot.name}
      </Box>
      <Box sx={{ mt: 1 }}>
        <RecordForm
          key={spot.updatedAt}
          label={`Correct ${spot.name}`}
          record={spot as unknown as Record<string, unknown>}
          fields={[
            { source: 'name', label: 'Name' },
            { source: 'waterBody', label: 'Water body' },
            { source: 'county', label: 'County' },
            { source: 'location.latitude', label: 'Latitude', kind: 'number', read: (r) => (r as unknown as Spot).location.latitude },
            { source: 'location.longitude', label: 'Longitude', kind: 'number', read: (r) => (r as unknown as Spot).location.longitude },
            { source: 'description', label: 'Description', kind: 'long' },
            { source: 'sourceUrl', label: 'Source' },
          ]}
          reason="required"
          submitLabel="Correct"
          notice={`${spot.name} corrected`}
          submit={(body) => fishlog.POST('/api/admin/spots/{id}/correct', { ...byId(spot.id), body: body as never })}
        />
      </Box>
    </Box>
  );
}

/**
 * Clubs (Admin, Owner; GET /api/admin/clubs): every club — deactivated ones too — by activity,
 * privacy, state and featuring (in the URL), each with its members, admins and pending requests;
 * feature with a reason or stop featuring, deactivate or reactivate with a reason.
 */
export const Clubs = queueScreen<Club>({
  title: 'Clubs',
  statuses: ACTIVITY,
  defaultStatus: 'Active',
  filters: [
    <SearchInput key="q" source="q" alwaysOn placeholder="Name or water" aria-label="Name, description or water" />,
    <SelectInput key="privacy" source="privacy" label="Privacy" choices={['Public', 'Private'].map((p) => ({ id: p, name: p }))} alwaysOn />,
    stateFilter,
    featuredFilter,
  ],
  name: (c) => c.name,
  subheader: (c) => `${c.privacy}${c.isActive ? '' : ' · deactivated'}${c.featured ? ' · featured' : ''} · owner ${c.owner.username} · created ${when(c.createdAt)}`,
  facts: (c) => [
    ['Where', [c.homeWater, c.city, c.stateCode].filter(Boolean).join(', ')],
    ['Description', c.description],
    ['Website', c.websiteUrl],
    ['Usage', `${count(c.usage.members, 'member')} (${c.usage.admins} running it), ${count(c.usage.pendingRequests, 'request')} to join waiting`],
    ['Featured', featuring(c)],
    ...deactivation(c),
  ],
  reasonLabel: 'Reason (kept in the audit log)',
  decisions: [
    { label: 'Feature', done: 'featured', when: (c) => c.isActive && !c.featured, reason: 'required', send: (c, reason) => fishlog.POST('/api/admin/clubs/{id}/feature', { ...byId(c.id), body: { reason: reason! } }) },
    { label: 'Stop featuring', done: 'no longer featured', when: (c) => c.featured, reason: 'none', send: (c) => fishlog.DELETE('/api/admin/clubs/{id}/feature', byId(c.id)) },
    ...lifecycle<Club>('/api/admin/clubs/{id}'),
  ],
  empty: 'No club matches.',
});
