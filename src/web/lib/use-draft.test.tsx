import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { clearDrafts, useDraft } from './use-draft.ts';

const EMPTY = { title: '', content: '', votes: 0 };

afterEach(() => sessionStorage.clear());

describe('useDraft', () => {
  it('keeps what is typed for the tab, so a page opened again finds it, until it is cleared', () => {
    const first = renderHook(() => useDraft('story', EMPTY));
    act(() => first.result.current[1]((f) => ({ ...f, title: 'The oak on Alder Street' })));
    first.unmount();
    // Back on the page (or reloaded): the draft is there.
    const again = renderHook(() => useDraft('story', EMPTY));
    expect(again.result.current[0]).toEqual({ title: 'The oak on Alder Street', content: '', votes: 0 });
    act(() => again.result.current[2]());
    expect(again.result.current[0]).toEqual(EMPTY);
    again.unmount();
    expect(renderHook(() => useDraft('story', EMPTY)).result.current[0]).toEqual(EMPTY);
  });

  it('forgets every draft on sign-out, and nothing else of the tab', () => {
    sessionStorage.setItem('townbeat:draft:story', JSON.stringify({ title: 'Mine' }));
    sessionStorage.setItem('townbeat:draft:memory-forge', JSON.stringify({ location: 'Alder St' }));
    sessionStorage.setItem('townbeat:last-discover', '/?category=Music');
    clearDrafts();
    expect(Object.keys(sessionStorage)).toEqual(['townbeat:last-discover']);
  });

  it('reads back only the form’s own fields, of their types', () => {
    sessionStorage.setItem('townbeat:draft:story', JSON.stringify({ title: 'Kept', content: 42, votes: 'x', extra: true }));
    expect(renderHook(() => useDraft('story', EMPTY)).result.current[0]).toEqual({ title: 'Kept', content: '', votes: 0 });
    sessionStorage.setItem('townbeat:draft:story', '{not json');
    expect(renderHook(() => useDraft('story', EMPTY)).result.current[0]).toEqual(EMPTY);
  });
});
