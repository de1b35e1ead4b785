import { SearchInput } from 'react-admin';
import type { components } from '@fishlog/client';
import { fishlog } from '../api';
import { queueScreen, reasonBody } from '../Decisions';
import { money } from '../format';
import { list, when } from '../RecordScreens';

type Event = components['schemas']['Event'];
type Tournament = components['schemas']['AdminTournament'];
type Organizer = components['schemas']['AdminTournamentOrganizer'];
type Captain = components['schemas']['CharterCaptain'] & { id: string };
type FishingReport = components['schemas']['FishingReport'];

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
  subheader: (e) => `${e.status}${e.featured ? ' · featured' : ''} · ${e.type} · by ${e.createdBy.username}`,
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
  subheader: (t) => `${t.status} · by ${t.organizer.name} (organizer ${t.organizerStatus})`,
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
  subheader: (o) => `${o.status} · applied ${when(o.createdAt)}`,
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
  subheader: (c) => `${c.status} · applied ${when(c.createdAt)}`,
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
  subheader: (r) => `${r.status} · fished ${r.fishedOn}${r.stateCode ? ` · ${r.stateCode}` : ''}`,
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
