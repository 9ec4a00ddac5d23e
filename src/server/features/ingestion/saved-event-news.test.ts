import { describe, expect, it } from 'vitest';
import { savedEventNotifications } from './saved-event-news.ts';

const city = { timeZone: 'America/Los_Angeles', locale: 'en-US' };
const at = new Date('2026-11-27T18:00:00Z');

describe('savedEventNotifications', () => {
  it('tells each person who saved an event, in the city’s time, that it is cancelled or moved, linking its page', () => {
    const news = [
      { id: 'e1', title: 'Lantern Walk', allDay: false, kind: 'cancelled' as const, start: new Date('2026-12-05T02:00:00Z') },
      { id: 'e2', title: 'Makers Fair', allDay: false, kind: 'moved' as const, from: new Date('2026-12-12T18:00:00Z'), to: new Date('2026-12-13T19:30:00Z') },
      { id: 'e3', title: 'Winter Market', allDay: true, kind: 'moved' as const, from: new Date('2026-12-19T08:00:00Z'), to: new Date('2026-12-20T08:00:00Z') },
    ];
    const savers = [
      { userId: 'u1', eventId: 'e1' },
      { userId: 'u2', eventId: 'e1' },
      { userId: 'u1', eventId: 'e2' },
      { userId: 'u3', eventId: 'e3' },
      { userId: 'u4', eventId: 'not-in-the-news' },
    ];
    expect(savedEventNotifications(news, savers, city, at)).toEqual([
      // 02:00 UTC on Dec 5 is the evening of Dec 4 in Portland.
      { userId: 'u1', type: 'info', title: 'Saved event cancelled', message: '“Lantern Walk” (Fri, Dec 4 · 6:00 PM) is cancelled, says its source.', link: '/events/e1', at },
      { userId: 'u2', type: 'info', title: 'Saved event cancelled', message: '“Lantern Walk” (Fri, Dec 4 · 6:00 PM) is cancelled, says its source.', link: '/events/e1', at },
      { userId: 'u1', type: 'info', title: 'Saved event moved', message: '“Makers Fair” now starts Sun, Dec 13 · 11:30 AM (it was Sat, Dec 12 · 10:00 AM).', link: '/events/e2', at },
      { userId: 'u3', type: 'info', title: 'Saved event moved', message: '“Winter Market” now starts Sun, Dec 20 · All day (it was Sat, Dec 19 · All day).', link: '/events/e3', at },
    ]);
  });

  it('names the source when it is one of several: its word, not the event’s, and where to see the others', () => {
    const start = new Date('2026-12-05T02:00:00Z');
    const news = [
      { id: 'e1', by: 'Poetry Blog', title: 'Lantern Walk', allDay: false, kind: 'cancelled' as const, start },
      { id: 'e2', by: 'Poetry Blog', title: 'Makers Fair', allDay: false, kind: 'postponed' as const, start },
      { id: 'e3', by: 'Poetry Blog', title: 'Winter Market', allDay: false, kind: 'relisted' as const, start },
    ];
    const savers = ['e1', 'e2', 'e3'].map((eventId) => ({ userId: 'u1', eventId }));
    expect(savedEventNotifications(news, savers, city, at).map(({ title, message }) => ({ title, message }))).toEqual([
      { title: 'A source cancelled a saved event', message: '“Lantern Walk” (Fri, Dec 4 · 6:00 PM) is cancelled, says Poetry Blog, one of the sources that list it: see what the others say on its page.' },
      { title: 'A source postponed a saved event', message: '“Makers Fair” (Fri, Dec 4 · 6:00 PM) is postponed, says Poetry Blog, one of the sources that list it: see what the others say on its page.' },
      { title: 'Saved event back on', message: '“Winter Market” (Fri, Dec 4 · 6:00 PM) is listed again by Poetry Blog, which had said it was cancelled.' },
    ]);
  });

  it('tells them of another time a source gives, listed apart, opening that listing', () => {
    const news = [{ id: 'e1', by: 'Poetry Blog', title: 'Lantern Walk', allDay: false, kind: 'apart' as const, start: new Date('2026-12-12T02:00:00Z'), was: new Date('2026-12-05T02:00:00Z'), opens: 'e9' }];
    expect(savedEventNotifications(news, [{ userId: 'u1', eventId: 'e1' }], city, at)).toEqual([
      {
        userId: 'u1',
        type: 'info',
        title: 'Sources disagree on a saved event',
        message: 'Poetry Blog gives “Lantern Walk” another time, Fri, Dec 11 · 6:00 PM: listed on its own now, beside the one you saved (Fri, Dec 4 · 6:00 PM).',
        link: '/events/e9',
        at,
      },
    ]);
  });

  it('tells them when the source lists again an event it had said was cancelled', () => {
    const news = [{ id: 'e1', title: 'Lantern Walk', allDay: false, kind: 'relisted' as const, start: new Date('2026-12-05T02:00:00Z') }];
    expect(savedEventNotifications(news, [{ userId: 'u1', eventId: 'e1' }], city, at)).toEqual([
      { userId: 'u1', type: 'info', title: 'Saved event back on', message: '“Lantern Walk” (Fri, Dec 4 · 6:00 PM) is listed again by its source, which had said it was cancelled.', link: '/events/e1', at },
    ]);
  });

  it('tells them when the source postpones an event with no new date yet, and when it lists it again at its new date', () => {
    const news = [
      { id: 'e1', title: 'Lantern Walk', allDay: false, kind: 'postponed' as const, start: new Date('2026-12-05T02:00:00Z') },
      { id: 'e2', title: 'Makers Fair', allDay: false, kind: 'relisted' as const, start: new Date('2027-01-16T18:00:00Z'), after: 'postponed' as const },
    ];
    expect(savedEventNotifications(news, [{ userId: 'u1', eventId: 'e1' }, { userId: 'u1', eventId: 'e2' }], city, at)).toEqual([
      { userId: 'u1', type: 'info', title: 'Saved event postponed', message: '“Lantern Walk” (Fri, Dec 4 · 6:00 PM) is postponed, says its source, with no new date yet.', link: '/events/e1', at },
      { userId: 'u1', type: 'info', title: 'Saved event back on', message: '“Makers Fair” (Sat, Jan 16, 2027 · 10:00 AM) is listed again by its source, which had said it was postponed.', link: '/events/e2', at },
    ]);
  });

  it('says the year of a date in another year than the run’s', () => {
    const lateDecember = new Date('2026-12-30T20:00:00Z');
    const news = [{ id: 'e1', title: 'Lantern Walk', allDay: false, kind: 'moved' as const, from: new Date('2026-12-31T03:00:00Z'), to: new Date('2027-01-02T03:00:00Z') }];
    expect(savedEventNotifications(news, [{ userId: 'u1', eventId: 'e1' }], city, lateDecember)).toEqual([
      { userId: 'u1', type: 'info', title: 'Saved event moved', message: '“Lantern Walk” now starts Fri, Jan 1, 2027 · 7:00 PM (it was Wed, Dec 30 · 7:00 PM).', link: '/events/e1', at: lateDecember },
    ]);
  });

  it('tells no one when nobody saved the event', () => {
    expect(savedEventNotifications([{ id: 'e1', title: 'Lantern Walk', allDay: false, kind: 'cancelled', start: at }], [], city, at)).toEqual([]);
  });
});
