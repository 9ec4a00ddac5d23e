import { act, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FlyerScanResponse, ScanChallenge, ScanHistory } from '../../../contract/scan.ts';
import { AUTH_USER_KEY } from '../auth/auth.queries.ts';
import { buildUser, json, renderApp, stubFetch } from '../events/test-helpers.tsx';
import FlyerScannerPage from './flyer-scanner-page.tsx';
import { fromCityInput, toCityInput } from './scan-input.ts';
import { SCAN_KEYS } from './scan.queries.ts';

configure({ asyncUtilTimeout: 5000 });

const HISTORY: ScanHistory = { scanCount: 3, totalPointsEarned: 75, badgesEarned: [{ title: 'Flyer Finder', points: 10 }], stats: { thisWeek: 2 } };
const CHALLENGES: ScanChallenge[] = [
  { id: 'c1', title: 'Poster Hunter', description: 'Scan 5 flyers', reward: { points: 50 }, progress: 3, target: 5, completed: false },
  { id: 'c2', title: 'First Scan', description: 'Scan your first flyer', reward: { points: 10 }, progress: 1, target: 1, completed: true },
];
const EXTRACTED = {
  title: 'Winter Lantern Walk',
  startDate: '2026-11-29T02:00:00.000Z',
  endDate: null,
  venue: 'Tidewater Park',
  price: null,
  isFree: true,
  url: null,
  category: 'Other',
  text: 'Winter Lantern\nWalk\nThis Saturday, 6 PM\nTidewater Park\nFree',
  confidence: 0.95,
};
const EVENT_ID = '00000000-0000-4000-8000-0000000000aa';
const SUCCESS: FlyerScanResponse = {
  success: true,
  scanId: 'scan-1',
  extracted: EXTRACTED,
  result: {
    pointsEarned: 25,
    badges: [{ title: 'Flyer Finder', points: 10 }],
    event: { id: EVENT_ID, title: 'Winter Lantern Walk', startDate: EXTRACTED.startDate, venue: 'Tidewater Park', category: 'Other', isNew: true, status: 'pending' },
  },
};

type ScanAnswer = () => Response | Promise<Response>;

/** The page's API: history, challenges, and a scan answered by `answer`; records the scan bodies. */
function stubScanApi(answer: ScanAnswer, extra: (url: URL, init?: RequestInit) => Response | undefined = () => undefined, history: ScanHistory = HISTORY) {
  const bodies: { imageData: string; location?: unknown }[] = [];
  const fetchFn = stubFetch((url, init) => {
    if (url.pathname === '/api/scan/history') return json(history);
    if (url.pathname === '/api/scan/challenges') return json(CHALLENGES);
    if (url.pathname === '/api/scan/flyer' && init?.method === 'POST') {
      bodies.push(JSON.parse(String(init.body)) as { imageData: string });
      return answer();
    }
    return extra(url, init);
  });
  return { bodies, fetchFn };
}

const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const flyer = (type = 'image/png', name = 'flyer.png') => new File([PNG_BYTES], name, { type });

function choose(file: File) {
  fireEvent.change(screen.getByTestId('flyer-file'), { target: { files: [file] } });
}

const scanButton = () => screen.getByRole('button', { name: 'Scan Flyer' });

beforeEach(() => {
  // No geolocation in jsdom by default: the page scans without a location (the city centre).
  vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { geolocation: undefined }));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the flyer scanner page', { timeout: 20_000 }, () => {
  it('shows a badge chip without a number when the badge paid no points', async () => {
    const history: ScanHistory = { ...HISTORY, badgesEarned: [{ title: 'Explorer', points: 0 }, { title: 'Flyer Finder', points: 10 }] };
    stubScanApi(() => json(SUCCESS), undefined, history);
    renderApp(<FlyerScannerPage />, { user: buildUser() });
    const chips = await screen.findByRole('list', { name: 'Scanner badges' });
    expect(within(chips).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Explorer', 'Flyer Finder · +10']);
  });

  it('shows the stat tiles, the challenges with progress, and no image yet', async () => {
    stubScanApi(() => json(SUCCESS));
    renderApp(<FlyerScannerPage />, { user: buildUser() });
    expect(screen.getByRole('heading', { level: 1, name: 'Event Flyer Scanner' })).toBeTruthy();
    const stats = screen.getByRole('region', { name: 'Your scan stats' });
    await waitFor(() => expect(stats.textContent).toContain('75'));
    expect(stats.textContent).toMatch(/Total Scans3/);
    expect(stats.textContent).toMatch(/Badges1/);
    expect(stats.textContent).toMatch(/This Week2/);
    const bar = await screen.findByRole('progressbar', { name: 'Poster Hunter progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('3');
    expect(bar.getAttribute('aria-valuemax')).toBe('5');
    expect(screen.getByText('+50 pts')).toBeTruthy();
    const done = screen.getAllByTestId('scan-challenge').find((c) => c.dataset.completed === 'true')!;
    expect(within(done).getByText('Completed')).toBeTruthy();
    // No image: nothing to scan.
    expect(screen.getByTestId('scan-empty').textContent).toContain('No image chosen yet');
    expect((scanButton() as HTMLButtonElement).disabled).toBe(true);
    const input = screen.getByTestId('flyer-file') as HTMLInputElement;
    expect(input.accept).toBe('image/jpeg,image/png,image/webp');
    expect(screen.getByLabelText('Take a photo').getAttribute('capture')).toBe('environment');
  });

  it('refuses a file that is not an image without calling the server', async () => {
    const { bodies } = stubScanApi(() => json(SUCCESS));
    renderApp(<FlyerScannerPage />, { user: buildUser() });
    choose(flyer('application/pdf', 'flyer.pdf'));
    expect((await screen.findByTestId('scan-error')).textContent).toContain('Please choose a JPEG, PNG or WebP image.');
    expect((scanButton() as HTMLButtonElement).disabled).toBe(true);
    expect(bodies).toHaveLength(0);
  });

  it('previews a chosen image, shows progress while reading, then the result with points and a link', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const { bodies } = stubScanApi(async () => {
      await gate;
      return json(SUCCESS);
    });
    const { client } = renderApp(<FlyerScannerPage />, { user: buildUser() });
    choose(flyer());
    const preview = await screen.findByRole('img', { name: 'Your flyer: flyer.png' });
    expect(preview.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect((scanButton() as HTMLButtonElement).disabled).toBe(false);

    const invalidate = vi.spyOn(client, 'invalidateQueries');
    fireEvent.click(scanButton());
    await waitFor(() => expect(screen.getByRole('status', { name: '' }).textContent).toBe('Reading your flyer…'));
    expect((scanButton() as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(bodies).toHaveLength(1));
    // Base64 without the data-URL prefix, and no location when the browser gives none.
    expect(bodies[0]!.imageData).toBe(btoa(String.fromCharCode(...PNG_BYTES)));
    expect(bodies[0]!.location).toBeUndefined();

    act(() => release());
    const result = await screen.findByTestId('scan-result');
    expect(within(result).getByRole('heading', { name: 'Scan Successful!' })).toBeTruthy();
    expect(within(result).getByTestId('scan-points').textContent).toBe('+25 points');
    expect(within(result).getByTestId('scan-title').textContent).toBe('Winter Lantern Walk');
    // 02:00 UTC on Nov 29 is 6 PM on Saturday Nov 28 in Portland.
    expect(result.textContent).toContain('Sat, Nov 28 · 6:00 PM');
    expect(result.textContent).toContain('Tidewater Park');
    expect(result.textContent).toContain('Free');
    expect(within(result).getByTestId('scan-is-new').textContent).toBe('New event sent for review');
    expect(within(result).getByRole('link', { name: 'View event page' }).getAttribute('href')).toBe(`/events/${EVENT_ID}`);
    // The toast of spec section 8, with points and badge counts.
    const toast = await screen.findByText('+25 points · 1 new badge');
    expect(toast).toBeTruthy();
    expect(screen.getAllByText('Scan Successful!').length).toBeGreaterThanOrEqual(2);
    // Tiles, challenges, the points chip and event lists refresh.
    const keys = invalidate.mock.calls.map((c) => JSON.stringify(c[0]?.queryKey));
    expect(keys).toEqual(expect.arrayContaining([JSON.stringify(SCAN_KEYS.history), JSON.stringify(SCAN_KEYS.challenges), JSON.stringify(AUTH_USER_KEY)]));
    expect(invalidate.mock.calls.some((c) => typeof c[0]?.predicate === 'function')).toBe(true);
  });

  it('sends corrections of a new event with PATCH', async () => {
    const patches: unknown[] = [];
    stubScanApi(
      () => json(SUCCESS),
      (url, init) => {
        if (url.pathname === '/api/scan/scan-1' && init?.method === 'PATCH') {
          patches.push(JSON.parse(String(init.body)));
          return json({ ok: true });
        }
        return undefined;
      },
    );
    renderApp(<FlyerScannerPage />, { user: buildUser() });
    choose(flyer());
    await screen.findByRole('img', { name: 'Your flyer: flyer.png' });
    fireEvent.click(scanButton());
    await screen.findByTestId('scan-result');
    expect((screen.getByLabelText('Starts') as HTMLInputElement).value).toBe('2026-11-28T18:00');
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Winter Lantern Walk 2026' } });
    fireEvent.change(screen.getByLabelText('Starts'), { target: { value: '2026-11-28T18:30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save corrections' }));
    await waitFor(() => expect(patches).toEqual([{ title: 'Winter Lantern Walk 2026', startDate: '2026-11-28T18:30:00-08:00' }]));
    await waitFor(() => expect(screen.getByTestId('scan-title').textContent).toBe('Winter Lantern Walk 2026'));
  });

  it('an already listed event is linked, with no corrections form', async () => {
    const linked: FlyerScanResponse = { ...SUCCESS, result: { ...SUCCESS.result!, pointsEarned: 10, badges: [], event: { ...SUCCESS.result!.event, isNew: false, status: 'approved' } } };
    stubScanApi(() => json(linked));
    renderApp(<FlyerScannerPage />, { user: buildUser() });
    choose(flyer());
    await screen.findByRole('img', { name: 'Your flyer: flyer.png' });
    fireEvent.click(scanButton());
    expect((await screen.findByTestId('scan-is-new')).textContent).toBe('Already listed: linked your scan');
    expect(screen.queryByRole('button', { name: 'Save corrections' })).toBeNull();
    expect(await screen.findByText('+10 points · 0 new badges')).toBeTruthy();
    expect(screen.queryByTestId('scan-message')).toBeNull();
  });

  it('says why a scan earned no points: a flyer of that event scanned before', async () => {
    const again: FlyerScanResponse = { ...SUCCESS, message: 'You scanned a flyer of this event before: it earns points once', result: { ...SUCCESS.result!, pointsEarned: 0, badges: [], challenges: [], event: { ...SUCCESS.result!.event, isNew: false, status: 'pending' } } };
    stubScanApi(() => json(again));
    renderApp(<FlyerScannerPage />, { user: buildUser() });
    choose(flyer());
    await screen.findByRole('img', { name: 'Your flyer: flyer.png' });
    fireEvent.click(scanButton());
    expect((await screen.findByTestId('scan-message')).textContent).toBe('You scanned a flyer of this event before: it earns points once');
    expect(screen.getByTestId('scan-points').textContent).toBe('+0 points');
    // Its event still waits for review: not said to be listed.
    expect(screen.getByTestId('scan-is-new').textContent).toBe('Already sent for review: linked your scan');
  });

  it("says 'No Event Detected' and shows the text read when there is no result", async () => {
    stubScanApi(() => json({ success: true, extracted: { ...EXTRACTED, title: null, startDate: null, text: 'SALE 50% OFF' } }));
    renderApp(<FlyerScannerPage />, { user: buildUser() });
    choose(flyer());
    await screen.findByRole('img', { name: 'Your flyer: flyer.png' });
    fireEvent.click(scanButton());
    const panel = await screen.findByTestId('scan-result');
    expect(within(panel).getByRole('heading', { name: 'No Event Detected' })).toBeTruthy();
    expect(within(panel).getByTestId('scan-text').textContent).toBe('SALE 50% OFF');
    expect(screen.getAllByText('Try scanning a clearer flyer or event poster').length).toBeGreaterThanOrEqual(2);
  });

  it("shows 'Scan Failed' with the server's message for a 400", async () => {
    stubScanApi(() => json({ code: 'invalid_image', message: 'The file is not an image we can read' }, { status: 400 }));
    renderApp(<FlyerScannerPage />, { user: buildUser() });
    choose(flyer());
    await screen.findByRole('img', { name: 'Your flyer: flyer.png' });
    fireEvent.click(scanButton());
    expect((await screen.findByTestId('scan-error')).textContent).toBe('Scan Failed: The file is not an image we can read');
    // The image stays chosen: the user may try again.
    expect((scanButton() as HTMLButtonElement).disabled).toBe(false);
  });

  it("shows 'Please try again with a different image' for other failures", async () => {
    stubScanApi(() => json({ code: 'internal', message: 'boom' }, { status: 500 }));
    renderApp(<FlyerScannerPage />, { user: buildUser() });
    choose(flyer());
    await screen.findByRole('img', { name: 'Your flyer: flyer.png' });
    fireEvent.click(scanButton());
    expect((await screen.findByTestId('scan-error')).textContent).toBe('Scan Failed: Please try again with a different image');
  });

  it('says the reader is busy and when to retry on a 503', async () => {
    stubScanApi(() => json({ code: 'unavailable', message: 'The flyer reader is busy' }, { status: 503, headers: { 'Retry-After': '7' } }));
    renderApp(<FlyerScannerPage />, { user: buildUser() });
    choose(flyer());
    await screen.findByRole('img', { name: 'Your flyer: flyer.png' });
    fireEvent.click(scanButton());
    expect((await screen.findByTestId('scan-error')).textContent).toBe('Scan Failed: The flyer reader is busy. Please try again in 7 s.');
  });

  it('sends the browser position when it is allowed', async () => {
    const getCurrentPosition = vi.fn((ok: PositionCallback) => ok({ coords: { latitude: 45.52, longitude: -122.68 } } as GeolocationPosition));
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { geolocation: { getCurrentPosition } }));
    const { bodies } = stubScanApi(() => json(SUCCESS));
    renderApp(<FlyerScannerPage />, { user: buildUser() });
    choose(flyer());
    await screen.findByRole('img', { name: 'Your flyer: flyer.png' });
    fireEvent.click(scanButton());
    await screen.findByTestId('scan-result');
    expect(bodies[0]!.location).toEqual({ latitude: 45.52, longitude: -122.68 });
  });

  it('Demo Scan sends the built-in flyer', async () => {
    const { bodies } = stubScanApi(
      () => json(SUCCESS),
      // jsdom's FileReader reads only jsdom's own Blob, not the one a fetch Response makes.
      (url) => (url.pathname === '/assets/demo-flyer.jpg' ? ({ ok: true, status: 200, blob: async () => new Blob([PNG_BYTES], { type: 'image/jpeg' }) } as unknown as Response) : undefined),
    );
    renderApp(<FlyerScannerPage />, { user: buildUser() });
    fireEvent.click(screen.getByRole('button', { name: 'Demo Scan' }));
    expect(await screen.findByRole('img', { name: 'The demo flyer: Winter Lantern Walk' })).toBeTruthy();
    await screen.findByTestId('scan-result');
    expect(bodies[0]!.imageData).toBe(btoa(String.fromCharCode(...PNG_BYTES)));
  });
});

describe('city time inputs', () => {
  it('round-trips a datetime-local value on the city clocks', () => {
    expect(toCityInput('2026-07-04T16:00:00.000Z', 'America/Los_Angeles')).toBe('2026-07-04T09:00');
    expect(fromCityInput('2026-07-04T09:00', 'America/Los_Angeles')).toBe('2026-07-04T09:00:00-07:00');
    expect(fromCityInput('nonsense', 'America/Los_Angeles')).toBeNull();
  });
});
