import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StoriesResponse, Story } from '../../../contract/stories.ts';
import { buildUser, json, renderApp, stubFetch } from '../events/test-helpers.tsx';
import { ShareStoryDialog } from './share-story-dialog.tsx';
import StoriesPage from './stories-page.tsx';

// Rendering Radix overlays in jsdom can be slow on a busy machine.
configure({ asyncUtilTimeout: 5000 });
afterEach(() => vi.unstubAllGlobals());

function buildStory(over: Partial<Story> = {}): Story {
  return {
    id: 's1',
    title: 'A story',
    content: 'Text',
    category: 'community',
    author: 'Pat',
    createdAt: '2026-11-25T06:30:00Z', // 11/24/2026 in Portland
    likes: 0,
    views: 0,
    aiGenerated: false,
    generator: null,
    featured: false,
    isDemo: false,
    likedByMe: false,
    reportedByMe: false,
    ...over,
  };
}

describe('ShareStoryDialog', { timeout: 20_000 }, () => {
  it('keeps Share Story disabled until title, content and author are filled, and counts to 5000', async () => {
    let posted: unknown = null;
    stubFetch((url, init) => {
      if (url.pathname === '/api/stories' && init?.method === 'POST') {
        posted = JSON.parse(String(init.body));
        return json({ story: buildStory(), pointsEarned: 20, badges: [] }, { status: 201 });
      }
      return undefined;
    });
    const onOpenChange = vi.fn();
    renderApp(<ShareStoryDialog open onOpenChange={onOpenChange} />, { user: buildUser() });
    const dialog = screen.getByRole('dialog', { name: 'Share Your Story' });
    const submit = within(dialog).getByRole('button', { name: 'Share Story' });
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    expect(within(dialog).getByTestId('story-counter').textContent).toBe('0/5000');
    expect((within(dialog).getByLabelText('Category') as HTMLSelectElement).value).toBe('community');

    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: 'Porch concert' } });
    fireEvent.change(within(dialog).getByLabelText('Your story'), { target: { value: 'Sixty came.' } });
    expect(within(dialog).getByTestId('story-counter').textContent).toBe('11/5000');
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Your name'), { target: { value: '   ' } });
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Your name'), { target: { value: 'Lena' } });
    expect((submit as HTMLButtonElement).disabled).toBe(false);
    // The cap: longer text is cut at 5000.
    fireEvent.change(within(dialog).getByLabelText('Your story'), { target: { value: 'x'.repeat(5100) } });
    expect(within(dialog).getByTestId('story-counter').textContent).toBe('5000/5000');

    fireEvent.click(submit);
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(posted).toEqual({ title: 'Porch concert', author: 'Lena', category: 'community', content: 'x'.repeat(5000) });
    expect((within(dialog).getByLabelText('Title') as HTMLInputElement).value).toBe('');
  });
});

describe('StoriesPage', { timeout: 20_000 }, () => {
  it('shows counts, featured (200 characters) and all stories (150), AI badges, short US dates and user text as text', async () => {
    const long = 'a'.repeat(300);
    const body: StoriesResponse = {
      stories: [
        buildStory({ id: 's1', title: '<b>Not bold</b>', content: long, likes: 2, views: 5 }),
        buildStory({ id: 's2', title: 'The Legend of the Brass Lantern', category: 'legend', aiGenerated: true, generator: 'built-in', content: 'They say.' }),
      ],
      featured: [buildStory({ id: 's1', title: '<b>Not bold</b>', content: long, featured: true })],
      categories: ['legend', 'history', 'mystery', 'community'],
      metadata: { totalStories: 2, aiGenerated: 1, userSubmitted: 1 },
    };
    stubFetch((url) => (url.pathname === '/api/stories' ? json(body) : undefined));
    renderApp(<StoriesPage />, { user: buildUser() });
    expect(await screen.findByTestId('count-total')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('count-total').textContent).toBe('2'));
    expect(screen.getByTestId('count-ai').textContent).toBe('1');
    expect(screen.getByTestId('count-user').textContent).toBe('1');
    const featured = screen.getByTestId('featured-stories');
    expect(within(featured).getByTestId('story-preview').textContent).toBe(`${'a'.repeat(200)}…`);
    const all = screen.getByTestId('all-stories');
    expect(within(all).getAllByTestId('story-preview')[0]!.textContent).toBe(`${'a'.repeat(150)}…`);
    expect(within(all).getAllByTestId('ai-badge')).toHaveLength(1);
    expect(within(all).getAllByText('11/24/2026').length).toBe(2);
    expect(within(all).getAllByRole('heading', { name: '<b>Not bold</b>' })).toHaveLength(1);
    expect(document.querySelector('article b')).toBeNull();
  });
});
