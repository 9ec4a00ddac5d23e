// Sealed held-out phrasings for the admin assistant's built-in engine, written without sight of
// its rules or its other tables (2026-11-25); never tune the engine on this file. Measured by
// bench/assistant.bench.ts and intents.test.ts.
import { CASE_PENDING, CASE_SOURCES, type IntentCase } from './intent-cases.ts';

const src = (n: number) => CASE_SOURCES[n - 1]!.id;
const ev = (n: number) => CASE_PENDING[n - 1]!.id;

export const SEALED_CASES: IntentCase[] = [
  // health_check (9)
  { text: 'is everything healthy?', type: 'health_check' },
  { text: 'system health check please', type: 'health_check' },
  { text: "how's the app doing right now", type: 'health_check' },
  { text: 'what is the overall status of the platform?', type: 'health_check' },
  { text: 'r we up? everything ok', type: 'health_check' },
  { text: 'run a health check', type: 'health_check' },
  { text: 'Give me a quick health report on the system.', type: 'health_check' },
  { text: 'are all the components healthy?', type: 'health_check' },
  { text: 'hows the system', type: 'health_check' },

  // database_status (8)
  { text: 'database status', type: 'database_status' },
  { text: 'how big is the db now', type: 'database_status' },
  { text: 'row counts for each table please', type: 'database_status' },
  { text: 'Is the database responding? Check the round trip time.', type: 'database_status' },
  { text: 'db ping', type: 'database_status' },
  { text: 'how much space is the database using', type: 'database_status' },
  { text: 'check the db connection and latency', type: 'database_status' },
  { text: 'how many rows are in the database tables?', type: 'database_status' },

  // error_logs (9)
  { text: 'show recent errors', type: 'error_logs' },
  { text: 'last 20 errors', type: 'error_logs', args: { limit: 20 } },
  { text: 'any image processing errors lately?', type: 'error_logs', args: { origin: 'images' } },
  { text: 'list the http errors', type: 'error_logs', args: { origin: 'http' } },
  { text: '5 most recent scheduler errors', type: 'error_logs', args: { limit: 5, origin: 'scheduler' } },
  { text: 'what does the error log say', type: 'error_logs' },
  { text: 'Show me the latest 3 ingestion errors.', type: 'error_logs', args: { limit: 3, origin: 'ingestion' } },
  { text: 'any exceptions logged recently?', type: 'error_logs' },
  { text: 'pull up 15 errors from the log', type: 'error_logs', args: { limit: 15 } },

  // source_status (12)
  { text: 'how did the sources do today?', type: 'source_status', args: { window: 'today' } },
  { text: 'any feeds fail this week?', type: 'source_status', args: { window: 'week', failedOnly: true } },
  { text: 'importer status', type: 'source_status' },
  { text: 'show failed imports from the last 30 days', type: 'source_status', args: { window: 'month', failedOnly: true } },
  {
    text: 'How has Mississippi Studios been fetching this month?',
    type: 'source_status',
    args: { window: 'month', sourceId: src(3) },
  },
  { text: 'source run history, all time', type: 'source_status', args: { window: 'all' } },
  { text: 'which calendars failed to import today', type: 'source_status', args: { window: 'today', failedOnly: true } },
  {
    text: 'did the Oregon Zoo Events feed run ok today?',
    type: 'source_status',
    args: { window: 'today', sourceId: src(2) },
  },
  { text: 'status of all sources over the past 7 days', type: 'source_status', args: { window: 'week' } },
  { text: 'list only the broken sources', type: 'source_status', args: { failedOnly: true } },
  { text: 'how are the scrapers going?', type: 'source_status' },
  {
    text: 'Portland Parks & Recreation - any failed runs this week?',
    type: 'source_status',
    args: { window: 'week', failedOnly: true, sourceId: src(1) },
  },

  // pending_review (9)
  { text: "what's in the review queue?", type: 'pending_review' },
  { text: 'how many events are waiting for approval', type: 'pending_review' },
  { text: 'moderation queue pls', type: 'pending_review' },
  { text: 'show 5 pending events', type: 'pending_review', args: { limit: 5 } },
  { text: 'Anything I need to moderate?', type: 'pending_review' },
  { text: 'list submissions awaiting review', type: 'pending_review' },
  { text: 'any reported stories to look at?', type: 'pending_review' },
  { text: 'first 3 items in the moderation queue', type: 'pending_review', args: { limit: 3 } },
  { text: 'pending review count', type: 'pending_review' },

  // events_by_category (9)
  { text: 'category breakdown for this week', type: 'events_by_category', args: { window: 'week' } },
  { text: 'how many events per category today', type: 'events_by_category', args: { window: 'today' } },
  { text: 'Count of events in each category this month, please.', type: 'events_by_category', args: { window: 'month' } },
  { text: 'which categories are busiest over the past 7 days', type: 'events_by_category', args: { window: 'week' } },
  { text: 'category stats for the last 30 days', type: 'events_by_category', args: { window: 'month' } },
  { text: 'events per category', type: 'events_by_category' },
  { text: 'split of events across categories this week', type: 'events_by_category', args: { window: 'week' } },
  { text: 'what kinds of events do we have today, grouped by category?', type: 'events_by_category', args: { window: 'today' } },
  { text: 'categry breakdown', type: 'events_by_category' },

  // user_points (9)
  { text: 'how many points does jane.doe@example.com have', type: 'user_points', args: { email: 'jane.doe@example.com' } },
  { text: "What's Maria Lopez's score?", type: 'user_points', args: { name: 'Maria Lopez' } },
  { text: 'points balance for tom.baker@gmail.com', type: 'user_points', args: { email: 'tom.baker@gmail.com' } },
  { text: 'check the points of user Sam Carter', type: 'user_points', args: { name: 'Sam Carter' } },
  { text: 'score for alex@townbeat.test?', type: 'user_points', args: { email: 'alex@townbeat.test' } },
  { text: 'how many points has Priya Patel earned', type: 'user_points', args: { name: 'Priya Patel' } },
  { text: 'lookup points: kim.nguyen@example.org', type: 'user_points', args: { email: 'kim.nguyen@example.org' } },
  { text: 'points balance of Jordan Reyes', type: 'user_points', args: { name: 'Jordan Reyes' } },
  { text: 'whats the point total for bob@example.com', type: 'user_points', args: { email: 'bob@example.com' } },

  // clear_cache (8)
  { text: 'clear the events cache', type: 'clear_cache', args: { caches: ['events'] } },
  { text: 'flush all caches', type: 'clear_cache', args: { caches: ['events', 'feeds'] } },
  { text: 'wipe the feed validators', type: 'clear_cache', args: { caches: ['feeds'] } },
  { text: 'reset the stored etags and last-modified headers', type: 'clear_cache', args: { caches: ['feeds'] } },
  { text: 'purge the event stats cache', type: 'clear_cache', args: { caches: ['events'] } },
  { text: 'clear cache', type: 'clear_cache' },
  { text: 'Please empty both the events and feeds caches.', type: 'clear_cache', args: { caches: ['events', 'feeds'] } },
  { text: 'invalidate the event facets cache', type: 'clear_cache', args: { caches: ['events'] } },

  // restart_services (8)
  { text: 'restart the scheduler', type: 'restart_services', args: { services: ['scheduler'] } },
  { text: 'reboot the image worker', type: 'restart_services', args: { services: ['images'] } },
  { text: 'bounce all services', type: 'restart_services', args: { services: ['scheduler', 'images'] } },
  { text: 'kick the source scheduler', type: 'restart_services', args: { services: ['scheduler'] } },
  { text: 'restart every service please', type: 'restart_services', args: { services: ['scheduler', 'images'] } },
  { text: 'image worker seems hung, restart it', type: 'restart_services', args: { services: ['images'] } },
  { text: 'reboot scheduler and image worker', type: 'restart_services', args: { services: ['scheduler', 'images'] } },
  { text: 'Can you restart the services?', type: 'restart_services', args: { services: ['scheduler', 'images'] } },

  // emergency_repair (8)
  { text: 'run emergency repair', type: 'emergency_repair' },
  { text: 'emergency fix now', type: 'emergency_repair' },
  { text: 'things are badly broken, do the full repair', type: 'emergency_repair' },
  { text: 'requeue stuck jobs and rebuild the search index', type: 'emergency_repair' },
  { text: 'the search index is broken, rebuild it', type: 'emergency_repair' },
  { text: 're-check the migrations', type: 'emergency_repair' },
  { text: 'Initiate the emergency repair procedure.', type: 'emergency_repair' },
  { text: 'jobs are stuck, requeue them', type: 'emergency_repair' },

  // run_source (9)
  { text: 'run Doug Fir Lounge now', type: 'run_source', args: { sourceId: src(6) } },
  { text: 'fetch the Oregon Zoo Events feed right now', type: 'run_source', args: { sourceId: src(2) } },
  { text: "please pull Powell's Books Readings immediately", type: 'run_source', args: { sourceId: src(4) } },
  { text: 'trigger an import for Travel Portland Calendar', type: 'run_source', args: { sourceId: src(5) } },
  { text: 'sync mississippi studios', type: 'run_source', args: { sourceId: src(3) } },
  { text: 'Can you kick off a fetch of Portland Parks & Recreation?', type: 'run_source', args: { sourceId: src(1) } },
  { text: 're-import doug fir lounge', type: 'run_source', args: { sourceId: src(6) } },
  { text: 'scrape the travel portland calendar now', type: 'run_source', args: { sourceId: src(5) } },
  { text: 'refetch Powells Books Readings', type: 'run_source', args: { sourceId: src(4) } },

  // approve_event (10)
  { text: 'approve Jazz Night at the Alberta Rose', type: 'approve_event', args: { eventId: ev(1) } },
  { text: 'please approve the Sellwood Farmers Market', type: 'approve_event', args: { eventId: ev(2) } },
  { text: 'publish Hawthorne Street Fair', type: 'approve_event', args: { eventId: ev(3) } },
  { text: 'Tech Meetup: Rust in Production looks good, approve it', type: 'approve_event', args: { eventId: ev(4) } },
  { text: 'aprove sellwood farmers market', type: 'approve_event', args: { eventId: ev(2) } },
  { text: 'greenlight the jazz night at the alberta rose', type: 'approve_event', args: { eventId: ev(1) } },
  { text: 'ok to publish Tech Meetup: Rust in Production', type: 'approve_event', args: { eventId: ev(4) } },
  { text: 'accept the Hawthorne Street Fair event', type: 'approve_event', args: { eventId: ev(3) } },
  { text: 'mark Jazz Night at the Alberta Rose as approved', type: 'approve_event', args: { eventId: ev(1) } },
  { text: 'yes, approve the Rust in Production meetup', type: 'approve_event', args: { eventId: ev(4) } },

  // reject_event (10)
  { text: 'reject Hawthorne Street Fair', type: 'reject_event', args: { eventId: ev(3) } },
  { text: 'decline the Sellwood Farmers Market submission', type: 'reject_event', args: { eventId: ev(2) } },
  { text: 'Jazz Night at the Alberta Rose is spam, reject it', type: 'reject_event', args: { eventId: ev(1) } },
  { text: 'deny Tech Meetup: Rust in Production', type: 'reject_event', args: { eventId: ev(4) } },
  { text: 'rejct the hawthorne street fair', type: 'reject_event', args: { eventId: ev(3) } },
  {
    text: "please turn down Jazz Night at the Alberta Rose, it's a duplicate",
    type: 'reject_event',
    args: { eventId: ev(1) },
  },
  { text: "don't publish the Sellwood Farmers Market, reject it", type: 'reject_event', args: { eventId: ev(2) } },
  { text: 'refuse Tech Meetup: Rust in Production', type: 'reject_event', args: { eventId: ev(4) } },
  { text: 'reject the sellwood farmers market event please', type: 'reject_event', args: { eventId: ev(2) } },
  { text: 'Hawthorne Street Fair: rejected, wrong date', type: 'reject_event', args: { eventId: ev(3) } },

  // null (12)
  { text: 'hello!', type: null },
  { text: "thanks, that's all", type: null },
  { text: 'tell me a joke', type: null },
  { text: 'run SELECT count(*) FROM users;', type: null },
  { text: 'execute `ls -la /var/log` on the server', type: null },
  { text: "what's the weather in Portland tomorrow?", type: null },
  { text: 'delete the user bob@example.com', type: null },
  { text: 'create a new event for Saturday at Laurelhurst Park', type: null },
  { text: 'send a newsletter to all subscribers', type: null },
  { text: 'write a haiku about Portland', type: null },
  { text: 'DROP TABLE events;', type: null },
  { text: 'what is the capital of France?', type: null },
];
