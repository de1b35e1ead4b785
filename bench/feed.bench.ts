/**
 * P1/P2/P3 and RSS under load: the entries feed and the posts feed on 1M entries (100k posts),
 * for viewers with 0, 50 and 500 friends, service against the bare route running its SQL; then
 * the feed's median latency at 1M against 10k entries (light load: 4 clients, timed to the µs).
 */
import { atLeast, atMost, BenchServer, compare, feedDatabase, load, medianLatencyMs, round, type BenchResult } from './lib.js';

export default async function run(): Promise<BenchResult> {
  const big = await feedDatabase('1m');
  const small = await feedDatabase('10k');
  const details: Record<string, unknown> = {};
  let server = await BenchServer.start(big);
  let maxRss = 0;
  const figures = [];
  try {
    const viewers = { 0: await server.login('bench_viewer_0'), 50: await server.login('bench_viewer_50'), 500: await server.login('bench_viewer_500') };
    const feed = await compare(server, 'feed50', '/api/fishinglog/entries', viewers[50]);
    const posts = await compare(server, 'posts50', '/api/social/posts', viewers[50]);
    const feed0 = await compare(server, 'feed0', '/api/fishinglog/entries', viewers[0]);
    const feed500 = await compare(server, 'feed500', '/api/fishinglog/entries', viewers[500]);
    Object.assign(details, { feed, posts, feed0, feed500 });
    maxRss = Math.max(...[feed, posts, feed0, feed500].map((c) => c.service.maxRssMb));
    figures.push(
      atLeast('P1 entries feed throughput, service ÷ bare (1M, 50 friends)', feed.ratio, 0.9),
      atLeast('P1 posts feed throughput, service ÷ bare (1M, 50 friends)', posts.ratio, 0.9),
      atLeast('P1 entries feed, 0 friends: service ÷ bare', feed0.ratio, 0.9),
      atLeast('P1 entries feed, 500 friends: service ÷ bare', feed500.ratio, 0.9),
      atMost('P2 entries feed p99 at 50 connections, service ÷ bare', feed.p99Ratio, 1.3),
      atMost('P5 RSS under load (MB)', maxRss, 200, 'MB'),
    );
    details.feedRps = { friends0: feed0.service.rps, friends50: feed.service.rps, friends500: feed500.service.rps, bare500: feed500.bare.rps };
  } finally {
    await server.stop();
  }
  // P3: each size in a fresh service process after the same warm-up (not after the loads above,
  // whose grown heap would be measured too).
  const median = async (url: string) => {
    server = await BenchServer.start(url);
    try {
      const headers = await server.login('bench_viewer_50');
      await load(server, `http://127.0.0.1:${server.servicePort}/api/fishinglog/entries`, { headers, connections: 4, seconds: 2 });
      return await medianLatencyMs(`http://127.0.0.1:${server.servicePort}/api/fishinglog/entries`, headers);
    } finally {
      await server.stop();
    }
  };
  const p50Big = await median(big);
  const p50Small = await median(small);
  details.p50 = { at1M: round(p50Big), at10k: round(p50Small) };
  figures.push(atMost('P3 feed p50 at 1M ÷ p50 at 10k (4 clients, ms to the µs)', p50Big / p50Small, 1.3));
  return { name: 'feed', figures, details };
}
