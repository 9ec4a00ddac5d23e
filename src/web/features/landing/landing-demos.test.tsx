import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import LandingPage, { features } from './landing-page.tsx';

function renderSignedOut() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  queryClient.setQueryData(['/api/auth/user'], null);
  const view = render(
    <QueryClientProvider client={queryClient}>
      <LandingPage />
    </QueryClientProvider>,
  );
  return { ...view, queryClient };
}

/** The demo panels that are currently shown (hidden panels are left out of the role query). */
const openPanels = () => screen.queryAllByRole('region').filter((el) => el.hasAttribute('data-demo-panel'));

describe('LandingPage (signed out)', () => {
  it('shows the headline once, as the only h1', () => {
    renderSignedOut();
    const h1s = screen.getAllByRole('heading', { level: 1 });
    expect(h1s).toHaveLength(1);
    expect(h1s[0]?.textContent).toBe('Never Miss Another Perfect Event');
  });

  it('offers sign-up calls to action, not the dashboard', () => {
    renderSignedOut();
    for (const name of ['Get Started', 'Discover Events Now', 'Get Started for Free']) {
      expect(screen.getByRole('link', { name }).getAttribute('href')).toBe('/signup');
    }
    expect(screen.queryByRole('link', { name: /Go to Dashboard/ })).toBeNull();
  });

  it('renders six feature cards with their demo types', () => {
    const { container } = renderSignedOut();
    const cards = [...container.querySelectorAll<HTMLElement>('[data-feature-id]')];
    expect(cards).toHaveLength(6);
    expect(cards.map((c) => c.querySelector('h3')?.textContent)).toEqual([
      'AI-Powered Discovery',
      'Hyperlocal Coverage',
      'Community Gamification',
      'Real-Time Updates',
      'Personalized Recommendations',
      'Multiple Data Sources',
    ]);
    const allowed = ['ai-classification', 'location-mapping', 'rewards-system', 'ar-preview'];
    for (const card of cards) expect(allowed).toContain(card.dataset.demoType);
    expect(cards.map((c) => c.dataset.demoType)).toEqual(features.map((f) => f.demoType));
    // every demo type is represented
    expect(new Set(cards.map((c) => c.dataset.demoType))).toEqual(new Set(allowed));
  });

  it('"See How It Works" does not throw where scrollIntoView is missing', () => {
    renderSignedOut();
    expect(() => fireEvent.click(screen.getByRole('button', { name: /See How It Works/ }))).not.toThrow();
  });

  it('toggles a demo between "See Demo" and "Hide Demo"', () => {
    renderSignedOut();
    const buttons = screen.getAllByRole('button', { name: 'See Demo' });
    expect(buttons).toHaveLength(4);
    expect(openPanels()).toHaveLength(0);

    const first = buttons[0]!;
    expect(first.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(first);
    expect(first.textContent).toContain('Hide Demo');
    expect(first.getAttribute('aria-expanded')).toBe('true');
    const panelId = first.getAttribute('aria-controls');
    expect(panelId).toBeTruthy();
    const panel = document.getElementById(panelId!);
    expect(panel?.hidden).toBe(false);
    expect(openPanels()).toEqual([panel]);

    fireEvent.click(first);
    expect(first.textContent).toContain('See Demo');
    expect(first.getAttribute('aria-expanded')).toBe('false');
    expect(panel?.hidden).toBe(true);
    expect(openPanels()).toHaveLength(0);
  });

  it('keeps only one demo open at a time', () => {
    renderSignedOut();
    const [ai, coverage, rewards, ar] = screen.getAllByRole('button', { name: 'See Demo' });

    fireEvent.click(ai!);
    expect(openPanels()).toHaveLength(1);
    fireEvent.click(coverage!);
    expect(openPanels()).toHaveLength(1);
    expect(ai!.getAttribute('aria-expanded')).toBe('false');
    expect(ai!.textContent).toContain('See Demo');
    expect(coverage!.getAttribute('aria-expanded')).toBe('true');
    expect(openPanels()[0]?.id).toBe(coverage!.getAttribute('aria-controls'));

    fireEvent.click(rewards!);
    fireEvent.click(ar!);
    const open = openPanels();
    expect(open).toHaveLength(1);
    expect(open[0]?.id).toBe(ar!.getAttribute('aria-controls'));
    expect(screen.getAllByRole('button', { name: 'Hide Demo' })).toHaveLength(1);
  });

  it('shows the sample events with categories in the AI demo', () => {
    renderSignedOut();
    fireEvent.click(screen.getAllByRole('button', { name: 'See Demo' })[0]!);
    const panel = within(openPanels()[0]!);
    expect(panel.getByText('Demo')).toBeTruthy();
    for (const [title, category] of [
      ['Jazz Night at the Waterfront', 'Music'],
      ['Food Cart Festival', 'Food'],
      ['Startup Pitch Night', 'Business'],
    ] as const) {
      const item = panel.getByText(title).closest('li')!;
      expect(item.textContent).toContain(category);
    }
  });

  it('shows four areas, the 2-mile radius and 90.3% capture in the coverage demo', () => {
    renderSignedOut();
    fireEvent.click(screen.getAllByRole('button', { name: 'See Demo' })[1]!);
    const region = openPanels()[0]!;
    expect(within(region).getAllByRole('progressbar')).toHaveLength(4);
    expect(region.textContent).toContain('2-mile radius');
    expect(region.textContent).toContain('90.3%');
  });

  it('shows badges, 847 points and rank 23 in the rewards demo', () => {
    renderSignedOut();
    fireEvent.click(screen.getAllByRole('button', { name: 'See Demo' })[2]!);
    const region = openPanels()[0]!;
    const text = region.textContent ?? '';
    expect(text).toContain('847');
    expect(text).toMatch(/Rank #23/);
    for (const pts of ['+50', '+25', '+15']) expect(text).toContain(pts);
    expect(within(region).getByText('Demo')).toBeTruthy();
  });

  it('plays a looping muted clip with an AR LIVE label in the AR demo', () => {
    const { container } = renderSignedOut();
    expect(container.querySelector('video')).toBeNull();
    fireEvent.click(screen.getAllByRole('button', { name: 'See Demo' })[3]!);
    const region = openPanels()[0]!;
    const video = region.querySelector('video')!;
    expect(video).toBeTruthy();
    expect(video.loop).toBe(true);
    expect(video.muted).toBe(true);
    expect(video.autoplay).toBe(true);
    expect(video.hasAttribute('playsinline')).toBe(true);
    expect(video.getAttribute('aria-label')).toBeTruthy();
    expect([...video.querySelectorAll('source')].map((s) => s.getAttribute('src'))).toEqual([
      '/assets/ar-demo.webm',
      '/assets/ar-demo.mp4',
    ]);
    expect(region.textContent).toContain('AR LIVE');
    expect(region.textContent).toContain('Pearl District, Portland');
  });

  it('shows the performance figures and the footer', () => {
    renderSignedOut();
    const text = document.body.textContent ?? '';
    for (const s of ['20+', '90%+', '15min', '95%+', '94.2% accuracy', '847 events per minute', '© 2026 Townbeat']) {
      expect(text).toContain(s);
    }
    expect(screen.getByRole('contentinfo')).toBeTruthy();
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('main')).toBeTruthy();
  });
});

describe('LandingPage (signed in)', () => {
  it('links to the dashboard instead of sign-in', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(['/api/auth/user'], {
      id: 'u1',
      email: 'a@example.com',
      firstName: 'Ada',
      lastName: null,
      profileImageUrl: null,
      points: 0,
      role: 'user',
    });
    render(
      <QueryClientProvider client={queryClient}>
        <LandingPage />
      </QueryClientProvider>,
    );
    const links = screen.getAllByRole('link', { name: /Go to Dashboard/ });
    expect(links).toHaveLength(3);
    for (const l of links) expect(l.getAttribute('href')).toBe('/dashboard');
    expect(screen.queryByRole('link', { name: 'Get Started' })).toBeNull();
    expect(screen.queryByRole('link', { name: /Get Started for Free/ })).toBeNull();
  });
});
