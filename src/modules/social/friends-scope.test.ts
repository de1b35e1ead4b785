import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { addToCircle, befriend, createEntry, createPostRow, createUser, requestFriendship, type TestUser } from '../../../test/factories.js';

/**
 * The friends-only scope (`?scope=friends`) of both feeds, the entries feed and the posts feed:
 * only the viewer's friends' records the viewer may see (Public and Friends ones, Circle ones of
 * friends whose circle holds the viewer); never a stranger's Public one, a pending friend's, a
 * friend's Private one, nor the viewer's own (`mine=true` is the way to those).
 */

let t: TestApp;
let viewer: TestUser;
let friend: TestUser;
let circleFriend: TestUser;
let pendingFriend: TestUser;
let stranger: TestUser;

type Visibility = 'Public' | 'Private' | 'Friends' | 'Circle';
const VISIBILITIES: Visibility[] = ['Public', 'Private', 'Friends', 'Circle'];

/** Each feed: its URL, how a test makes one of its records at a given time, and the time field of its items. */
const feeds = {
  entries: {
    url: '/api/fishinglog/entries',
    ownerParam: 'ownerId',
    create: async (owner: TestUser, visibility: Visibility, at: Date) => (await createEntry(t, owner, { visibility, occurredAt: at, title: `${visibility} trip` })).id,
  },
  posts: {
    url: '/api/social/posts',
    ownerParam: 'authorId',
    create: async (author: TestUser, visibility: Visibility, at: Date) => (await createPostRow(t, author, { visibility, createdAt: at })).id,
  },
};
type FeedName = keyof typeof feeds;

/** The ids made for each feed, by owner and visibility. */
const made = {} as Record<FeedName, Record<string, Record<Visibility, string>>>;

beforeAll(async () => {
  t = await createTestApp();
  viewer = await createUser(t);
  friend = await createUser(t);
  circleFriend = await createUser(t);
  pendingFriend = await createUser(t);
  stranger = await createUser(t);
  await befriend(t, viewer, friend);
  await befriend(t, viewer, circleFriend);
  await addToCircle(t, circleFriend, viewer);
  await requestFriendship(t, pendingFriend, viewer); // one side only: not a friend
  const owners = { viewer, friend, circleFriend, pendingFriend, stranger };
  let minute = 0;
  for (const name of Object.keys(feeds) as FeedName[]) {
    made[name] = {};
    for (const [label, owner] of Object.entries(owners)) {
      made[name][label] = {} as Record<Visibility, string>;
      for (const visibility of VISIBILITIES) {
        made[name][label]![visibility] = await feeds[name].create(owner, visibility, new Date(Date.UTC(2026, 5, 1, 12, minute++)));
      }
    }
  }
});
afterAll(async () => {
  await t?.close();
});

const get = async (url: string, user = viewer) => {
  const res = await t.app.inject({ method: 'GET', url, headers: user.headers });
  expect(res.statusCode, res.body).toBe(200);
  const items = res.json() as Array<{ id: string; occurredAt?: string; createdAt: string }>;
  return { ids: items.map((r) => r.id), times: items.map((r) => r.occurredAt ?? r.createdAt), next: /<([^>]+)>; rel="next"/.exec(String(res.headers.link))?.[1] };
};

describe.each(Object.keys(feeds) as FeedName[])('%s feed, scope=friends', (name) => {
  const feed = feeds[name];

  it("shows exactly the friends' records the viewer may see, newest first", async () => {
    const m = made[name];
    // Newest first: made in this order, a minute apart.
    const expected = [m.circleFriend!.Circle, m.circleFriend!.Friends, m.circleFriend!.Public, m.friend!.Friends, m.friend!.Public];
    expect((await get(`${feed.url}?scope=friends&pageSize=100`)).ids).toEqual(expected);
    // Left out by the scope alone: the same viewer's unscoped feed has the stranger's Public record and their own.
    const all = (await get(`${feed.url}?pageSize=100`)).ids;
    expect(all).toEqual(expect.arrayContaining([m.stranger!.Public, m.pendingFriend!.Public, m.viewer!.Private, ...expected]));
    expect(all).not.toContain(m.friend!.Circle);
    expect(all).not.toContain(m.friend!.Private);
    // The visibility filter without the scope (entries only; read per owner too): the viewer's own Friends entry and their friends'.
    if (name === 'entries') expect((await get(`${feed.url}?visibility=Friends`)).ids).toEqual([m.circleFriend!.Friends, m.friend!.Friends, m.viewer!.Friends]);
  });

  it('keeps Circle records to the friends whose circle holds the viewer', async () => {
    const m = made[name];
    // One friend's records: Public and Friends, not their Circle one (the viewer is not in their circle).
    expect((await get(`${feed.url}?scope=friends&${feed.ownerParam}=${friend.userId}`)).ids).toEqual([m.friend!.Friends, m.friend!.Public]);
    expect((await get(`${feed.url}?scope=friends&${feed.ownerParam}=${circleFriend.userId}`)).ids).toEqual([m.circleFriend!.Circle, m.circleFriend!.Friends, m.circleFriend!.Public]);
    // The friend sees the viewer's records the same way: they are in no circle of the viewer's.
    const seenByFriend = (await get(`${feed.url}?scope=friends&pageSize=100`, friend)).ids;
    expect(seenByFriend).toEqual([m.viewer!.Friends, m.viewer!.Public]);
    // A stranger has no friends: an empty feed, though the site is full of Public records.
    expect((await get(`${feed.url}?scope=friends`, stranger)).ids).toEqual([]);
  });

  it('pages by cursor in a stable order, without repeats or skips, while records are added', async () => {
    const base = Date.UTC(2026, 2, 1);
    for (let i = 0; i < 23; i++) await feed.create(i % 2 ? friend : circleFriend, (['Public', 'Friends', 'Circle'] as const)[i % 3]!, new Date(base + i * 60_000));
    const snapshot = (await get(`${feed.url}?scope=friends&pageSize=100`)).ids;
    const seen: string[] = [];
    let firstTime: string | undefined;
    let url: string | undefined = `${feed.url}?scope=friends&pageSize=4`;
    while (url) {
      const page: Awaited<ReturnType<typeof get>> = await get(url);
      seen.push(...page.ids);
      firstTime ??= page.times[0];
      // Others keep writing: a friend's newer record, one as old as the first record seen (a later
      // id: before the cursor), and a stranger's Public one among the pages still to come.
      await feed.create(friend, 'Public', new Date(Date.UTC(2027, 0, 1, 0, seen.length)));
      await feed.create(circleFriend, 'Friends', new Date(firstTime!));
      await feed.create(stranger, 'Public', new Date(base + 30_000));
      url = page.next;
    }
    const added = (await get(`${feed.url}?scope=friends&pageSize=100`)).ids.filter((id) => !snapshot.includes(id));
    expect(added.length).toBeGreaterThan(0);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(snapshot);
  });
});

describe('entries feed, scope=friends with other filters', () => {
  it('narrows by visibility and owner, and is empty for your own entries', async () => {
    const m = made.entries;
    expect((await get('/api/fishinglog/entries?scope=friends&visibility=Private')).ids).toEqual([]);
    expect((await get(`/api/fishinglog/entries?scope=friends&ownerId=${friend.userId}&from=2026-06-01T00:00:00Z&to=2026-06-02T00:00:00Z`)).ids).toEqual([m.friend!.Friends, m.friend!.Public]);
    expect((await get(`/api/fishinglog/entries?scope=friends&ownerId=${stranger.userId}`)).ids).toEqual([]);
    expect((await get('/api/fishinglog/entries?scope=friends&mine=true')).ids).toEqual([]);
    // A page by number (planned per request, still per owner).
    expect((await get(`/api/fishinglog/entries?scope=friends&ownerId=${friend.userId}&page=2&pageSize=1&from=2026-06-01T00:00:00Z&to=2026-06-02T00:00:00Z`)).ids).toEqual([m.friend!.Public]);
  });

  it('refuses an unknown scope (400 naming it)', async () => {
    for (const url of ['/api/fishinglog/entries?scope=everyone', '/api/social/posts?scope=strangers']) {
      const res = await t.app.inject({ method: 'GET', url, headers: viewer.headers });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.map((e: { pointer: string }) => e.pointer)).toContain('/scope');
    }
  });
});
