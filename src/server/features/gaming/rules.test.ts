import { describe, expect, it } from 'vitest';
import { BADGES, BADGE_TYPES, discoverBannerTier, LEVEL_POINTS, levelFor, nextBadgeTarget } from '../../../contract/gaming.ts';
import { zonedToUtc } from '../../../contract/time.ts';
import { addDays, clientActivityTypes, localDay, qualifyingBadges, ruleFor, RULES, startOfLocalWeek, streakLength, type BadgeFacts } from './rules.ts';

const LA = 'America/Los_Angeles';
const la = (year: number, month: number, day: number, hour = 0, minute = 0) => zonedToUtc({ year, month, day, hour, minute }, LA);
/** The local days of a list of instants, as the streak sees them. */
const daysOf = (instants: Date[], tz = LA) => instants.map((i) => localDay(i, tz));

describe('the rule table', () => {
  it('pays the spec amounts: a favourite discovery 5, an AR interaction 5, the demo scan 15', () => {
    expect(RULES.discovered.points).toBe(5);
    expect(RULES.ar.points).toBe(5);
    expect(RULES.demo_scan.points).toBe(15);
    expect(RULES.check_in.points).toBe(25);
    expect(RULES.vendor_visit.points).toBe(10);
  });

  it('lets clients report nothing: AR is paid by recording an AR session, everything else by the server', () => {
    expect(clientActivityTypes()).toEqual([]);
    expect(ruleFor('ar')?.clientReportable).toBe(false);
    for (const t of ['discovered', 'check_in', 'vendor_visit', 'demo_scan', 'flyer_scan', 'story_shared', 'quest_node']) expect(ruleFor(t)?.clientReportable).toBe(false);
  });

  it('knows no type outside the table, including inherited object keys', () => {
    expect(ruleFor('attended')).toBeUndefined();
    expect(ruleFor('toString')).toBeUndefined();
    expect(ruleFor('__proto__')).toBeUndefined();
  });

  it('caps repeatable activities per day and pays one-off targets once', () => {
    expect(RULES.ar.dailyCap).toBe(10);
    expect(RULES.flyer_scan.dailyCap).toBe(5);
    expect(RULES.story_shared.dailyCap).toBe(3);
    expect(RULES.check_in).toMatchObject({ dailyCap: null, oncePerTarget: true });
    expect(RULES.quest_node.points).toBeNull();
  });
});

describe('levels', () => {
  it('start at 1 and rise every 100 points', () => {
    expect(LEVEL_POINTS).toBe(100);
    expect(levelFor(0)).toBe(1);
    expect(levelFor(99)).toBe(1);
    expect(levelFor(100)).toBe(2);
    expect(levelFor(250)).toBe(3);
    expect(levelFor(-5)).toBe(1);
  });
});

describe('badge tiers', () => {
  it('gaming widget: Explorer at 50 under 50, Champion at 150 until 149, Local Legend at 300 until 299, then none', () => {
    expect(nextBadgeTarget(0)).toEqual({ name: 'Explorer', points: 50 });
    expect(nextBadgeTarget(49)).toEqual({ name: 'Explorer', points: 50 });
    expect(nextBadgeTarget(50)).toEqual({ name: 'Champion', points: 150 });
    expect(nextBadgeTarget(149)).toEqual({ name: 'Champion', points: 150 });
    expect(nextBadgeTarget(150)).toEqual({ name: 'Local Legend', points: 300 });
    expect(nextBadgeTarget(299)).toEqual({ name: 'Local Legend', points: 300 });
    expect(nextBadgeTarget(300)).toBeNull();
  });

  it("discover banner: 'Local Legend!' from 150 points up", () => {
    expect(discoverBannerTier(10)).toEqual({ name: 'Explorer', target: 50 });
    expect(discoverBannerTier(50)).toEqual({ name: 'Champion', target: 150 });
    expect(discoverBannerTier(149)).toEqual({ name: 'Champion', target: 150 });
    expect(discoverBannerTier(150)).toEqual({ name: 'Local Legend!', target: null });
    expect(discoverBannerTier(1000)).toEqual({ name: 'Local Legend!', target: null });
  });

  it('are earned at 50, 150 and 300 points', () => {
    const none: BadgeFacts = { points: 0, eventsDiscovered: 0, storiesShared: 0, streak: 0, artsCheckIns: 0 };
    expect(qualifyingBadges({ ...none, points: 49 })).toEqual([]);
    expect(qualifyingBadges({ ...none, points: 50 })).toEqual(['tier_explorer']);
    expect(qualifyingBadges({ ...none, points: 150 })).toEqual(['tier_explorer', 'tier_champion']);
    expect(qualifyingBadges({ ...none, points: 300 })).toEqual(['tier_explorer', 'tier_champion', 'tier_local_legend']);
  });

  it('type badges follow their published rules', () => {
    const none: BadgeFacts = { points: 0, eventsDiscovered: 0, storiesShared: 0, streak: 0, artsCheckIns: 0 };
    expect(qualifyingBadges({ ...none, eventsDiscovered: 9 })).toEqual([]);
    expect(qualifyingBadges({ ...none, eventsDiscovered: 10 })).toEqual(['explorer']);
    expect(qualifyingBadges({ ...none, storiesShared: 3 })).toEqual(['social']);
    expect(qualifyingBadges({ ...none, streak: 6 })).toEqual([]);
    expect(qualifyingBadges({ ...none, streak: 7 })).toEqual(['regular']);
    expect(qualifyingBadges({ ...none, artsCheckIns: 3 })).toEqual(['cultural']);
    for (const t of BADGE_TYPES) expect(BADGES[t].rule.length).toBeGreaterThan(5);
    expect(BADGES.tier_local_legend.title).toBe('Local Legend');
  });
});

describe('the local calendar', () => {
  it('puts an instant on its local day, not the UTC one', () => {
    // 23:30 in Portland is already the next day in UTC.
    expect(localDay(la(2026, 6, 1, 23, 30), LA)).toBe('2026-06-01');
    expect(localDay(new Date('2026-06-02T06:30:00Z'), LA)).toBe('2026-06-01');
    expect(localDay(new Date('2026-06-02T07:00:00Z'), LA)).toBe('2026-06-02');
  });

  it('moves calendar days across month ends and daylight-saving changes', () => {
    expect(addDays('2026-03-08', 1)).toBe('2026-03-09');
    expect(addDays('2026-11-01', -1)).toBe('2026-10-31');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('starts the week on Monday at local midnight, also in a daylight-saving week', () => {
    // Sunday 8 March 2026, after clocks went forward: the week began Monday 2 March (PST).
    expect(startOfLocalWeek(la(2026, 3, 8, 12), LA).toISOString()).toBe('2026-03-02T08:00:00.000Z');
    // Monday 9 March just after midnight (PDT): the week began at that midnight.
    expect(startOfLocalWeek(la(2026, 3, 9, 0, 5), LA).toISOString()).toBe('2026-03-09T07:00:00.000Z');
    // Sunday 1 November, after clocks went back: Monday 26 October (PDT).
    expect(startOfLocalWeek(la(2026, 11, 1, 23), LA).toISOString()).toBe('2026-10-26T07:00:00.000Z');
  });
});

describe('streaks', () => {
  it('count consecutive local days ending today', () => {
    expect(streakLength(['2026-06-01', '2026-06-02', '2026-06-03'], '2026-06-03')).toBe(3);
    expect(streakLength(['2026-06-01', '2026-06-03'], '2026-06-03')).toBe(1);
    expect(streakLength([], '2026-06-03')).toBe(0);
  });

  it('stay alive until the end of today: a streak ending yesterday still counts', () => {
    expect(streakLength(['2026-06-01', '2026-06-02'], '2026-06-03')).toBe(2);
    expect(streakLength(['2026-06-01'], '2026-06-03')).toBe(0);
  });

  it('split days at local midnight, not at UTC midnight', () => {
    // 23:50 and 00:10 local are two days; 16:00 and 23:00 local (23:00 and 06:00 UTC) are one.
    expect(streakLength(daysOf([la(2026, 6, 1, 23, 50), la(2026, 6, 2, 0, 10)]), '2026-06-02')).toBe(2);
    expect(streakLength(daysOf([la(2026, 6, 1, 16), la(2026, 6, 1, 23)]), '2026-06-01')).toBe(1);
  });

  it('survive the spring-forward day (23 hours long, 8 March 2026)', () => {
    const awards = [la(2026, 3, 7, 23, 30), la(2026, 3, 8, 0, 30), la(2026, 3, 8, 23, 30), la(2026, 3, 9, 0, 15)];
    expect(daysOf(awards)).toEqual(['2026-03-07', '2026-03-08', '2026-03-08', '2026-03-09']);
    expect(streakLength(daysOf(awards), localDay(la(2026, 3, 9, 12), LA))).toBe(3);
    // 24 hours after 23:30 on the 7th is already 00:30 on the 9th: fixed 24-hour steps would skip the 8th.
    const next = new Date(la(2026, 3, 7, 23, 30).getTime() + 24 * 3600 * 1000);
    expect(localDay(next, LA)).toBe('2026-03-09');
    expect(streakLength(daysOf([la(2026, 3, 7, 23, 30), next]), '2026-03-09')).toBe(1);
  });

  it('survive the fall-back day (25 hours long, 1 November 2026)', () => {
    // 00:30 on 1 November and 23:30 the same day are 24 hours apart but one local day.
    const early = la(2026, 11, 1, 0, 30);
    const late = la(2026, 11, 1, 23, 30);
    expect(late.getTime() - early.getTime()).toBe(24 * 3600 * 1000);
    expect(daysOf([early, late])).toEqual(['2026-11-01', '2026-11-01']);
    const awards = [la(2026, 10, 31, 22), early, late, la(2026, 11, 2, 0, 1)];
    expect(streakLength(daysOf(awards), '2026-11-02')).toBe(3);
    expect(streakLength(daysOf(awards), '2026-11-03')).toBe(3);
    expect(streakLength(daysOf(awards), '2026-11-04')).toBe(0);
  });

  it('depend on the city zone: the same instants make a different streak elsewhere', () => {
    // 06:30 and 07:30 UTC are 23:30 and 00:30 in Los Angeles (two days), 07:30 and 08:30 in London (one).
    const instants = [new Date('2026-06-02T06:30:00Z'), new Date('2026-06-02T07:30:00Z')];
    expect(streakLength(daysOf(instants, LA), '2026-06-02')).toBe(2);
    expect(streakLength(daysOf(instants, 'Europe/London'), '2026-06-02')).toBe(1);
  });
});
