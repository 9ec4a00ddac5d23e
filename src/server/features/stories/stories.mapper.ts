import type { Story } from '../../../contract/stories.ts';
import type { StoryListRow } from './stories.repository.ts';

/** A story row as the contract's Story; moderation facts only for admins. */
export function toStory(row: StoryListRow, opts: { admin: boolean }): Story {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    category: row.category,
    author: row.author,
    createdAt: row.createdAt.toISOString(),
    likes: row.likes,
    views: row.views,
    aiGenerated: row.aiGenerated,
    generator: row.generator,
    featured: row.featured,
    isDemo: row.isDemo,
    likedByMe: row.likedByMe,
    reportedByMe: row.reportedByMe,
    ...(opts.admin
      ? { moderation: { hiddenAt: row.hiddenAt?.toISOString() ?? null, reviewedAt: row.reviewedAt?.toISOString() ?? null, reports: row.reports } }
      : {}),
  };
}
